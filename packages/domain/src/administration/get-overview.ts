import type { Actor } from "../common/actor";
import { requireRole } from "../identity/identity.policy";
import type { AdministrationDeps } from "./administration.deps";
import type { Overview } from "./administration.types";

/** Within how many hours of being filed a report is acted on (the app stores' 24-hour promise). */
export const REPORT_ACTION_HOURS = 24;

/**
 * The admin overview, now (admins only). Marketplace: users by status; providers pending and
 * approved; listings by status; orders awaiting action (pending: the provider has not confirmed);
 * payments awaiting review (submitted, undecided). Moderation: undecided reports (open or in review)
 * of every target, those of them filed more than REPORT_ACTION_HOURS ago (the 24-hour promise), and
 * hidden moments.
 */
export const getOverview = (
  { repos, clock }: Pick<AdministrationDeps, "repos" | "clock">,
  actor: Actor,
): Promise<Overview> => {
  requireRole(actor, "admin");

  return repos.overview.overview({
    overdueBefore: new Date(clock.now().getTime() - REPORT_ACTION_HOURS * 3_600_000),
  });
};
