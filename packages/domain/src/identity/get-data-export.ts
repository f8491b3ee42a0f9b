import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import {
  type DataExport,
  type DataExportStatus,
  EXPORT_READ_URL_SECONDS,
  exportStatusAt,
} from "./data-export";
import { limitAuthRequestsByIp } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { hashToken } from "./secrets";

/** An export as the caller sees it, with a fresh read URL while it is ready. */
export type DataExportView = {
  export: DataExport | null;
  status: DataExportStatus | "none";
  download: { url: string; expiresAt: Date } | null;
};

const readUrl = async ({ objects }: Pick<IdentityDeps, "objects">, key: string, now: Date) => ({
  url: await objects.presignRead(key, { at: now, expiresInSeconds: EXPORT_READ_URL_SECONDS }),
  expiresAt: new Date(now.getTime() + EXPORT_READ_URL_SECONDS * 1000),
});

/**
 * The caller's newest export: `none` when never requested; while ready (and unexpired) with a
 * presigned read URL of 5 minutes, made fresh on each call.
 */
export const getDataExport = async (
  deps: Pick<IdentityDeps, "repos" | "clock" | "objects">,
  actor: Actor,
): Promise<DataExportView> => {
  const now = deps.clock.now();
  const exported = await deps.repos.dataExports.findLatest(actor.userId);
  if (!exported) {
    return { export: null, status: "none", download: null };
  }
  const status = exportStatusAt(exported, now);

  return {
    export: exported,
    status,
    download: status === "ready" && exported.objectKey ? await readUrl(deps, exported.objectKey, now) : null,
  };
};

/**
 * The mailed link: a fresh 5-minute read URL of the export its token names while that export is
 * ready and unexpired; 404 otherwise (an unknown, replaced or expired token alike).
 */
export const downloadDataExport = async (
  deps: Pick<IdentityDeps, "repos" | "clock" | "objects" | "settings">,
  token: string,
  clientIp: string,
): Promise<string> => {
  // Public, with a token as the credential: bounded per client address as the other such links are.
  await limitAuthRequestsByIp(deps, clientIp);
  const now = deps.clock.now();
  const exported = await deps.repos.dataExports.findByTokenHash(hashToken(token));
  if (!exported || exportStatusAt(exported, now) !== "ready" || !exported.objectKey) {
    throw new NotFoundError("Data export");
  }

  return (await readUrl(deps, exported.objectKey, now)).url;
};
