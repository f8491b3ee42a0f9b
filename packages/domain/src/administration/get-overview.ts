import type { Actor } from "../common/actor";
import { requireRole } from "../identity/identity.policy";
import type { AdministrationDeps } from "./administration.deps";
import type { Overview } from "./administration.types";

/**
 * The admin overview, now (admins only). Marketplace: users by status; providers pending and
 * approved; listings by status; orders awaiting action (pending: the provider has not confirmed);
 * payments awaiting review (submitted, undecided). Moderation: open reports (open or in review) and
 * hidden moments.
 */
export const getOverview = (
  { repos }: Pick<AdministrationDeps, "repos">,
  actor: Actor,
): Promise<Overview> => {
  requireRole(actor, "admin");

  return repos.overview.overview();
};
