import { reportsOperations } from "@agora/contracts/reports";
import { reportsAdminOperations } from "@agora/contracts/reports.admin";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { decideReportTarget } from "@agora/domain/community/decide-report-target";
import { listReportedTargets, listTargetReports } from "@agora/domain/community/list-target-reports";
import { reportTarget } from "@agora/domain/community/report-target";
import { viewReportTarget } from "@agora/domain/community/view-report-target";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import {
  toDecisionDto,
  toReportDto,
  toReportedTargetDto,
  toTargetReportDto,
  toTargetViewDto,
} from "./reports.presenter";

/** Reporting anything, and the moderators' queue and decisions on every target. */
export const reportsRoutes = ({ community }: { community: CommunityDeps }): Handled[] => [
  handle(reportsOperations.reportsCreate, async (c) => {
    const input = c.req.valid("json");
    const { report, created } = await reportTarget(community, actorOf(c), {
      targetType: input.target_type,
      targetId: input.target_id,
      category: input.category,
      note: input.note,
    });

    return created ? ok(c, toReportDto(report), { status: 201 }) : ok(c, toReportDto(report));
  }),
  handle(reportsAdminOperations.adminTargetReportsList, async (c) => {
    const {
      status,
      target_type: targetType,
      category,
      group_by: groupBy,
      limit,
      offset,
    } = c.req.valid("query");
    const meta = (total: number) => ({ meta: { limit, offset, total } });
    if (groupBy === "target") {
      const page = await listReportedTargets(
        community,
        actorOf(c),
        { targetType, category },
        { limit, offset },
      );

      return ok(c, page.items.map(toReportedTargetDto), meta(page.total));
    }
    const page = await listTargetReports(
      community,
      actorOf(c),
      { status, targetType, category },
      { limit, offset },
    );

    return ok(c, page.items.map(toTargetReportDto), meta(page.total));
  }),
  handle(reportsAdminOperations.adminReportTargetView, async (c) => {
    const { target_type: type, target_id: id } = c.req.valid("param");

    return ok(c, toTargetViewDto(await viewReportTarget(community, actorOf(c), { type, id })));
  }),
  handle(reportsAdminOperations.adminReportTargetDecide, async (c) => {
    const { target_type: type, target_id: id } = c.req.valid("param");
    const { action, note } = c.req.valid("json");
    const closed = await decideReportTarget(community, actorOf(c), {
      targetType: type,
      targetId: id,
      action,
      note,
    });

    return ok(c, toDecisionDto({ type, id }, action, closed));
  }),
];
