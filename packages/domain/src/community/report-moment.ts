import type { Actor } from "../common/actor";
import type { CommunityDeps } from "./community.deps";
import type { MomentReport, ReportReason } from "./community.types";
import { findVisibleMoment } from "./moments.policy";

/**
 * Reports a moment the caller may see to the moderators. A reporter has one open report (open or
 * reviewing) per moment: reporting again while it is open files nothing and answers that report
 * (`created: false`); once it is resolved or dismissed, a new report can be filed.
 */
export const reportMoment = async (
  deps: Pick<CommunityDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: { momentId: string; reason: ReportReason; note: string | undefined },
): Promise<{ report: MomentReport; created: boolean }> => {
  const moment = await findVisibleMoment(deps.repos, actor, input.momentId);
  const { outcome, report } = await deps.repos.reports.create({
    id: deps.ids.next(),
    momentId: moment.id,
    reporterId: actor.userId,
    reason: input.reason,
    note: input.note ?? null,
    createdAt: deps.clock.now(),
  });

  return { report, created: outcome === "created" };
};
