import { requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import type { AdministrationDeps } from "./administration.deps";
import type { ReportExportRow } from "./administration.types";

/** Rows read per round trip while exporting. */
const EXPORT_BATCH = 1_000;

/**
 * Every moderation report, oldest first, for the CSV export (admins only). The role is checked
 * now, before anything is streamed; the rows are read in batches as the caller consumes them.
 */
export const exportReports = (
  { repos }: Pick<AdministrationDeps, "repos">,
  actor: Actor,
): AsyncIterable<ReportExportRow> => {
  requireRole(actor, "admin");

  return (async function* () {
    for await (const batch of repos.reportExport.batches(EXPORT_BATCH)) {
      yield* batch;
    }
  })();
};
