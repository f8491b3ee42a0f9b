import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { CommunityDeps } from "./community.deps";
import type { ModeratedReport, ReportStatus } from "./community.types";

/**
 * The moderators' queue, oldest first, optionally of one status (admins only); grouped by moment,
 * one entry per moment with its oldest undecided report and how many it has.
 */
export const listReports = (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  filter: { status?: ReportStatus | undefined; groupByMoment?: boolean | undefined },
  page: PageRequest,
): Promise<Page<ModeratedReport & { momentOpenReports?: number }>> => {
  requireRole(actor, "admin");

  return repos.reports.findPage(filter, page);
};
