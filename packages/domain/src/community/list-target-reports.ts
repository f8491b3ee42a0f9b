import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { CommunityDeps } from "./community.deps";
import { MODERATOR_ROLES } from "./moderation.policy";
import type { TargetReportFilter } from "./reports.ports";
import type { TargetGroup, TargetReport } from "./reports.types";

/** The queue of every target's reports, oldest first, filtered (administrators). */
export const listTargetReports = (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  filter: TargetReportFilter,
  page: PageRequest,
): Promise<Page<TargetReport>> => {
  requireRole(actor, ...MODERATOR_ROLES);

  return repos.targetReports.findPage(filter, page);
};

/**
 * The queue grouped by target: one entry per target with undecided reports (open or reviewing),
 * oldest first by its oldest undecided report, with their count per category and the target as
 * it is now (administrators).
 */
export const listReportedTargets = (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  filter: Omit<TargetReportFilter, "status">,
  page: PageRequest,
): Promise<Page<TargetGroup>> => {
  requireRole(actor, ...MODERATOR_ROLES);

  return repos.targetReports.findGroups(filter, page);
};
