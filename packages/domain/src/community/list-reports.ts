import { requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import type { Page, PageRequest } from "../shared/page";
import type { CommunityDeps } from "./community.deps";
import type { ModeratedReport, ReportStatus } from "./community.types";

/** The moderators' queue, oldest first, optionally of one status (admins only). */
export const listReports = (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  filter: { status?: ReportStatus | undefined },
  page: PageRequest,
): Promise<Page<ModeratedReport>> => {
  requireRole(actor, "admin");

  return repos.reports.findPage(filter, page);
};
