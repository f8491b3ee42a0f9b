import type { Actor } from "../common/actor";
import { requireRole } from "../identity/identity.policy";
import type { AdministrationDeps } from "./administration.deps";
import type { ReportExportRow } from "./administration.types";

/** Rows read per round trip while exporting. */
const EXPORT_BATCH = 1_000;

/**
 * Every moderation report, oldest first, for the CSV export (admins only), in batches of up to
 * 1,000 rows. The role is checked now, before anything is streamed; each batch is read from the
 * database only when the caller asks for it, so a slow reader holds one batch, not the export.
 */
export const exportReports = (
  { repos }: Pick<AdministrationDeps, "repos">,
  actor: Actor,
): AsyncIterator<ReportExportRow[]> => {
  requireRole(actor, "admin");

  return repos.reportExport.batches(EXPORT_BATCH)[Symbol.asyncIterator]();
};
