import { communityAdminOperations } from "@agora/contracts/community.admin";
import { changeReportStatus } from "@agora/domain/community/change-report-status";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { listReports } from "@agora/domain/community/list-reports";
import { moderateReport } from "@agora/domain/community/moderate-report";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toModeratedReportDto } from "./community.presenter";

/** The moderators' queue and decisions (administrators). */
export const communityAdminRoutes = ({ community }: { community: CommunityDeps }): Handled[] => [
  handle(communityAdminOperations.adminReportsList, async (c) => {
    const { status: only, group_by: groupBy, limit, offset } = c.req.valid("query");
    const page = await listReports(
      community,
      actorOf(c),
      { status: only, groupByMoment: groupBy === "moment" },
      { limit, offset },
    );

    return ok(c, page.items.map(toModeratedReportDto), { meta: { limit, offset, total: page.total } });
  }),
  handle(communityAdminOperations.adminReportsModerate, async (c) => {
    const input = c.req.valid("json");
    const report = await moderateReport(community, actorOf(c), {
      reportId: c.req.valid("param").id,
      action: input.action,
      note: input.note,
    });

    return ok(c, toModeratedReportDto(report));
  }),
  handle(communityAdminOperations.adminReportsStatusUpdate, async (c) => {
    const report = await changeReportStatus(community, actorOf(c), {
      reportId: c.req.valid("param").id,
      status: c.req.valid("json").status,
    });

    return ok(c, toModeratedReportDto(report));
  }),
];
