import type { Actor } from "../common/actor";
import { AppError, NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { CommunityDeps } from "./community.deps";
import type { ModeratedReport, ModerationAction } from "./community.types";
import { reportClosedEvent } from "./events/report-closed";
import { isReportOpen, MODERATOR_ROLES, moderationOutcome, settlesMoment } from "./moderation.policy";
import { suspendForModeration } from "./suspend-author";

/**
 * Decides a report (admins only), in one transaction under the moment's lock, then the report's:
 * the action is applied (hide or restore the moment; suspend its author, revoking every session),
 * the report is resolved (dismissed for `none`), each decision is audited, and the reporter is told
 * the outcome through an inbox notification (moderation.policy.ts: moderationOutcome). An action
 * that settles the moment (settlesMoment: hide it, suspend its author) closes every other open
 * report on that moment the same way, in the same transaction, each audited and each reporter told
 * once. A report already closed is 422 invalid_transition; decisions on two reports of one moment
 * at once serialize on the moment, so the second sees what the first closed. Suspending the last
 * active administrator is 409 last_admin, and then nothing of the decision is kept (the report
 * stays open).
 */
export const moderateReport = async (
  { uow, clock }: Pick<CommunityDeps, "uow" | "clock">,
  actor: Actor,
  input: { reportId: string; action: ModerationAction; note?: string | undefined },
): Promise<ModeratedReport> => {
  requireRole(actor, ...MODERATOR_ROLES);
  const now = clock.now();

  return uow.run(async (tx) => {
    await tx.reports.lockMomentOf(input.reportId);
    const report = await tx.reports.findByIdForUpdate(input.reportId);
    if (!report) {
      throw new NotFoundError("Report");
    }
    if (!isReportOpen(report.status)) {
      throw new AppError("invalid_transition", `A ${report.status} report cannot be moderated again.`);
    }
    const outcome = moderationOutcome(input.action);
    if (outcome.momentHidden !== null) {
      const hidden = outcome.momentHidden;
      await tx.moments.setHidden(report.momentId, hidden ? { by: actor.userId, at: now } : null);
      await tx.audit.record(
        {
          actor,
          action: hidden ? "moment.hidden" : "moment.restored",
          targetType: "moment",
          targetId: report.momentId,
          before: { hidden: report.momentHidden },
          after: { hidden },
          details: { report_id: report.id },
        },
        now,
      );
    }
    if (outcome.suspendAuthor) {
      await suspendForModeration(tx, actor, report.momentAuthorId, { report_id: report.id }, now);
    }
    const status = outcome.report;
    const closed = await tx.reports.review(report.id, {
      status,
      reviewerId: actor.userId,
      note: input.note ?? null,
      at: now,
      decision: input.action,
    });
    await tx.audit.record(
      {
        actor,
        action: "report.moderated",
        targetType: "moment_report",
        targetId: report.id,
        before: { status: report.status },
        after: { status, action: input.action },
        ...(input.note ? { details: { note: input.note } } : {}),
      },
      now,
    );
    await tx.outbox.append(reportClosedEvent(report, status, input.action), now);
    if (settlesMoment(input.action)) {
      const alongside = await tx.reports.closeOpenOnMoment(report.momentId, {
        status,
        reviewerId: actor.userId,
        note: input.note ?? null,
        at: now,
        decision: input.action,
      });
      for (const other of alongside) {
        await tx.audit.record(
          {
            actor,
            action: "report.moderated",
            targetType: "moment_report",
            targetId: other.id,
            before: { status: other.previousStatus },
            after: { status, action: input.action },
            details: { decided_with: report.id },
          },
          now,
        );
        await tx.outbox.append(reportClosedEvent(other, status, input.action), now);
      }
    }

    return closed;
  });
};
