import type { Actor } from "../common/actor";
import { AppError, NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { CommunityDeps } from "./community.deps";
import type { ModeratedReport, ReportStatus } from "./community.types";
import { reportClosedEvent } from "./events/report-closed";
import { canMoveReport, isReportClosed, MODERATOR_ROLES } from "./moderation.policy";

/**
 * Moves a report by the documented moves (see moderation.policy.ts), audited; any other move is
 * 422 invalid_transition. Closing it this way (dismissed or resolved) tells the reporter, as a
 * moderation decision does.
 */
export const changeReportStatus = async (
  { uow, clock }: Pick<CommunityDeps, "uow" | "clock">,
  actor: Actor,
  input: { reportId: string; status: ReportStatus },
): Promise<ModeratedReport> => {
  requireRole(actor, ...MODERATOR_ROLES);
  const now = clock.now();

  return uow.run(async (tx) => {
    const report = await tx.reports.findByIdForUpdate(input.reportId);
    if (!report) {
      throw new NotFoundError("Report");
    }
    if (!canMoveReport(report.status, input.status)) {
      throw new AppError("invalid_transition", `A ${report.status} report cannot become ${input.status}.`);
    }
    const changed = await tx.reports.review(report.id, {
      status: input.status,
      reviewerId: actor.userId,
      note: null,
      at: now,
    });
    await tx.audit.record(
      {
        actor,
        action: "report.status_changed",
        targetType: "moment_report",
        targetId: report.id,
        before: { status: report.status },
        after: { status: input.status },
      },
      now,
    );
    if (isReportClosed(input.status)) {
      await tx.outbox.append(reportClosedEvent(report, input.status, null), now);
    }

    return changed;
  });
};
