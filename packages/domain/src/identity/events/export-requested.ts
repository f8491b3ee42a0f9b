import { z } from "zod";
import type { Mailer } from "../../common/mail";
import type { ObjectStore } from "../../media/media.ports";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { type DeliverableEvent, defineEventKind } from "../../outbox/event-kind";
import {
  type DataExport,
  EXPORT_LIFETIME_SECONDS,
  EXPORT_ROWS_PER_KIND,
  exportDocument,
  exportObjectKey,
} from "../data-export";
import type { DataExportDeliveryStore, UserRepository } from "../identity.ports";
import { dataExportReadyMail } from "../mail-templates";
import { generateRefreshToken, hashToken } from "../secrets";
import { exportExpired } from "./export-expired";

/** What building and announcing an export needs at delivery. */
export type ExportDeliveryDeps = NotifyDeps & {
  dataExports: DataExportDeliveryStore;
  objects: Pick<ObjectStore, "put" | "delete">;
  users: Pick<UserRepository, "findById">;
  mailer: Mailer;
  /** PUBLIC_API_URL: the base of the mailed download link; undefined, the mail has no link. */
  publicApiUrl: string | undefined;
};

/** The mailed link: the public download route with the export's token. */
export const exportDownloadLink = (base: string, token: string): string =>
  `${base}/api/v1/auth/me/export/download?token=${encodeURIComponent(token)}`;

type Payload = { export_id: string; user_id: string };

/**
 * The in-app notice (its id derives from the event and user, so a redelivery writes none twice)
 * and the mail with a new link's token: only its hash is stored, so a redelivered mail carries a new
 * one that replaces the previous (the newest mail's link works).
 */
const announce = async (
  deps: ExportDeliveryDeps,
  event: DeliverableEvent<Payload>,
  exported: Pick<DataExport, "id" | "userId">,
  expiresAt: Date,
  token: string,
  recipient: { email: string; displayName: string; username: string },
) => {
  await notify(deps, event, [
    {
      userId: exported.userId,
      kind: "account.export_ready",
      title: "Your data export is ready",
      body: "Download it from your account within 24 hours.",
      data: { export_id: exported.id, expires_at: expiresAt.toISOString() },
    },
  ]);
  await deps.mailer.send(
    dataExportReadyMail({
      to: recipient.email,
      name: recipient.displayName || recipient.username,
      link: deps.publicApiUrl ? exportDownloadLink(deps.publicApiUrl, token) : null,
      expiresAt,
    }),
  );
};

/**
 * A member asked for a copy of their data (request-data-export.ts): the document is built from
 * the account's rows, stored privately in the object store, the export marked ready for 24 hours
 * (its expiry queued, due then), and the owner told in the inbox and by mail. At least once: a
 * ready export is not rebuilt (a redelivery only announces it again, see announce), an export
 * that stopped being pending meanwhile (the account was deleted) keeps no object.
 */
export const exportRequested = defineEventKind({
  kind: "identity.export_requested",
  aggregateType: "data_export",
  payload: z.object({ export_id: z.uuid(), user_id: z.uuid() }),
  deliver: async (deps: ExportDeliveryDeps, event) => {
    const { dataExports, objects, users, clock } = deps;
    const exported = await dataExports.findById(event.payload.export_id);
    if (!exported || (exported.status !== "pending" && exported.status !== "ready")) {
      return;
    }
    const user = await users.findById(exported.userId);
    if (!user || user.status === "deleted") {
      if (exported.status === "pending") {
        await dataExports.markFailed(exported.id);
      }
      return;
    }
    const token = generateRefreshToken();
    if (exported.status === "ready") {
      const now = clock.now();
      if (
        exported.expiresAt &&
        exported.expiresAt > now &&
        (await dataExports.setDownloadToken(exported.id, hashToken(token)))
      ) {
        await announce(deps, event, exported, exported.expiresAt, token, user);
      }
      return;
    }
    const readyAt = clock.now();
    const bytes = exportDocument(await dataExports.gather(exported.userId, EXPORT_ROWS_PER_KIND), readyAt);
    const objectKey = exportObjectKey(exported.userId, exported.id);
    await objects.put(objectKey, bytes, "application/json");
    const expiresAt = new Date(readyAt.getTime() + EXPORT_LIFETIME_SECONDS * 1000);
    const marked = await dataExports.markReady(
      exported.id,
      { readyAt, expiresAt, objectKey, sizeBytes: bytes.byteLength, downloadTokenHash: hashToken(token) },
      exportExpired.event(exported.id, { export_id: exported.id, user_id: exported.userId }),
    );
    if (!marked) {
      // Another delivery made it ready (it announces it), or the account was deleted meanwhile.
      if ((await dataExports.findById(exported.id))?.status !== "ready") {
        await objects.delete(objectKey);
      }
      return;
    }
    await announce(deps, event, exported, expiresAt, token, user);
  },
});
