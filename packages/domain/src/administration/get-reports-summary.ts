import type { Actor } from "../common/actor";
import { requireRole } from "../identity/identity.policy";
import { type AdministrationDeps, REPORTS_WINDOW_MS } from "./administration.deps";
import type { ReportsSummary } from "./administration.types";

/**
 * The last 30 days, for an administrator (every service) or an accountant (the assigned services
 * only; none assigned: every figure is zero). Anyone else: 403. The figures:
 * - orders by status: orders created in the window, by their current status;
 * - completed gross: orders completed in the window (their completion snapshot), sum of totals per currency;
 * - manual sales: manual sales that occurred in the window, per currency (for an accountant, those of
 *   providers with a listing in an assigned service);
 * - payments confirmed: decided as confirmed in the window; awaiting review: submitted and undecided now;
 * - new listings: created in the window.
 * A service's orders and payments are those of its listings (listing → category → service).
 */
export const getReportsSummary = async (
  { repos, clock }: Pick<AdministrationDeps, "repos" | "clock">,
  actor: Actor,
): Promise<ReportsSummary> => {
  requireRole(actor, "admin", "accountant");
  const to = clock.now();
  const from = new Date(to.getTime() - REPORTS_WINDOW_MS);
  const serviceIds =
    actor.role === "admin"
      ? null
      : ((await repos.accountantServices.findServiceIdsByAccountants([actor.userId])).get(actor.userId) ??
        []);

  return repos.reportsSummary.summary({ from, to }, serviceIds);
};
