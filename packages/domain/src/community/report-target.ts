import type { Actor } from "../common/actor";
import { NotFoundError, ValidationError } from "../common/app-error";
import type { CommunityDeps } from "./community.deps";
import { findVisibleMoment } from "./moments.policy";
import { momentSnapshot } from "./report-moment";
import { reasonOfCategory } from "./reports.policy";
import type { ReportableTarget, ReportCategory, ReportTargetType, TargetReport } from "./reports.types";

/**
 * Reports anything the caller can see (docs/safety.md, "Reports"): 404 when the target does not
 * exist or is not theirs to see (a moment by the moment rule, findVisibleMoment, so 403 across a
 * block as its routes answer), 422 validation_failed on `target_id` for their own content or
 * themselves. The report keeps a snapshot of the target as it is now. One open report per reporter
 * and target: a second answers the first (`created: false`).
 */
export const reportTarget = async (
  deps: Pick<CommunityDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: {
    targetType: ReportTargetType;
    targetId: string;
    category: ReportCategory;
    note: string | undefined;
  },
): Promise<{ report: TargetReport; created: boolean }> => {
  const now = deps.clock.now();
  let target: ReportableTarget | null;
  if (input.targetType === "moment") {
    const moment = await findVisibleMoment(deps.repos, actor, input.targetId);
    target = { ownerId: moment.author.id, snapshot: momentSnapshot(moment) };
  } else {
    target = await deps.repos.targetReports.findReportable(
      input.targetType,
      input.targetId,
      actor.userId,
      now,
    );
  }
  if (!target) {
    throw new NotFoundError("Report target");
  }
  if (target.ownerId === actor.userId) {
    throw new ValidationError([
      { path: "target_id", message: "you cannot report yourself or your own content" },
    ]);
  }
  const { outcome, report } = await deps.repos.targetReports.file({
    id: deps.ids.next(),
    targetType: input.targetType,
    targetId: input.targetId,
    targetOwnerId: target.ownerId,
    reporterId: actor.userId,
    category: input.category,
    reason: reasonOfCategory(input.category),
    note: input.note ?? null,
    snapshot: target.snapshot,
    createdAt: now,
  });

  return { report, created: outcome === "created" };
};
