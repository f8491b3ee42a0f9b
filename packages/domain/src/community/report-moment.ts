import type { Actor } from "../common/actor";
import type { CommunityDeps } from "./community.deps";
import type { Moment, MomentReport, ReportReason } from "./community.types";
import { findVisibleMoment } from "./moments.policy";
import { categoryOfReason } from "./reports.policy";
import type { TargetReport } from "./reports.types";

/** What a moment was when it was reported: kept on the report for moderators. */
export const momentSnapshot = (moment: Moment): Record<string, unknown> => ({
  body: moment.body,
  media_asset_ids: moment.mediaAssetIds,
  owner: { id: moment.author.id, username: moment.author.username, display_name: moment.author.displayName },
});

/** A moment's report in the moment route's shape (SPEC): the target is the moment. */
export const toMomentReport = (report: TargetReport): MomentReport => ({
  id: report.id,
  momentId: report.targetId,
  reporterId: report.reporterId ?? "",
  reason: report.reason,
  note: report.note,
  status: report.status,
  createdAt: report.createdAt,
});

/**
 * Reports a moment the caller may see to the moderators, into the one queue of every target
 * (`reports`, target_type moment; the category from the reason: abuse is harassment). A reporter
 * has one open report (open or reviewing) per moment: reporting again while it is open files
 * nothing and answers that report (`created: false`); once it is resolved or dismissed, a new
 * report can be filed.
 */
export const reportMoment = async (
  deps: Pick<CommunityDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: { momentId: string; reason: ReportReason; note: string | undefined },
): Promise<{ report: MomentReport; created: boolean }> => {
  const moment = await findVisibleMoment(deps.repos, actor, input.momentId);
  const { outcome, report } = await deps.repos.targetReports.file({
    id: deps.ids.next(),
    targetType: "moment",
    targetId: moment.id,
    targetOwnerId: moment.author.id,
    reporterId: actor.userId,
    category: categoryOfReason(input.reason),
    reason: input.reason,
    note: input.note ?? null,
    snapshot: momentSnapshot(moment),
    createdAt: deps.clock.now(),
  });

  return { report: toMomentReport(report), created: outcome === "created" };
};
