import type { Actor } from "../common/actor";
import { AppError, NotFoundError, ValidationError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import { meetingEndedEvent } from "../lifestyle/events/meeting-ended";
import type { CommunityDeps } from "./community.deps";
import { authorWarned } from "./events/author-warned";
import { targetReportClosedEvent } from "./events/report-closed";
import { MODERATOR_ROLES } from "./moderation.policy";
import { actionAllowed, closingStatus, isHoldable } from "./reports.policy";
import type { DecisionAction, ReportCategory, ReportTargetType, TargetReport } from "./reports.types";
import { suspendForModeration } from "./suspend-author";

/**
 * Decides a reported target (administrators), in one transaction serialized per target: the
 * action is applied (docs/safety.md, "Reports": hide, delete, warn or suspend the owner, approve
 * held content, dismiss), then every report on the target still open or in review is closed with
 * it (`decision` set; dismissed for `dismiss`, resolved otherwise), each audited and each reporter
 * told once (a filter's report tells nobody). An action the target type does not take is 422
 * validation_failed on `action`; a target never reported is 404; one with no open report is 422 invalid_transition (so of two
 * decisions at once the second finds nothing open, and nothing of it is applied); suspending the
 * last active administrator is 409 last_admin and nothing is kept.
 */
export const decideReportTarget = async (
  { uow, clock }: Pick<CommunityDeps, "uow" | "clock">,
  actor: Actor,
  input: {
    targetType: ReportTargetType;
    targetId: string;
    action: DecisionAction;
    note?: string | undefined;
  },
): Promise<TargetReport[]> => {
  requireRole(actor, ...MODERATOR_ROLES);
  const { targetType: type, targetId: id, action } = input;
  if (!actionAllowed(type, action)) {
    throw new ValidationError([{ path: "action", message: `a ${type} cannot be decided with ${action}` }]);
  }
  const now = clock.now();
  const status = closingStatus(action);

  return uow.run(async (tx) => {
    await tx.targetReports.lockTarget(type, id);
    const closed = await tx.targetReports.closeOpen(type, id, {
      status,
      decision: action,
      reviewerId: actor.userId,
      note: input.note ?? null,
      at: now,
    });
    const first = closed[0];
    if (!first) {
      // Never reported (or no such target): 404; reported and all decided already: 422.
      if ((await tx.targetReports.findOnTarget(type, id)).length === 0) {
        throw new NotFoundError("Report");
      }
      throw new AppError("invalid_transition", `This ${type} has no open report to decide.`);
    }
    // The owner: the target's (the newest report knows it best), or the user reported.
    const ownerId =
      type === "user" ? id : (closed.findLast((r) => r.targetOwnerId !== null)?.targetOwnerId ?? null);
    const audit = (auditAction: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
      tx.audit.record(
        {
          actor,
          action: auditAction,
          targetType: type,
          targetId: id,
          before,
          after,
          details: { decision: action, owner_id: ownerId },
        },
        now,
      );
    switch (action) {
      case "hide":
        if (type === "moment") {
          await tx.moments.setHidden(id, { by: actor.userId, at: now });
        } else if (type === "dating_profile" || type === "listing") {
          await tx.targetReports.hide(type, id, now);
        }
        await audit(`${type}.hidden`, { hidden: false }, { hidden: true });
        break;
      case "delete": {
        let removed = false;
        if (type === "moment") {
          // As its author deletes it: media private at once, comments and edits with it.
          removed = await tx.ownContent.deleteMoment(id);
        } else if (type === "comment") {
          removed = await tx.ownContent.deleteComment(id);
        } else if (type === "message" || type === "dating_profile" || type === "meeting") {
          removed = await tx.targetReports.remove(type, id, now);
          if (removed && type === "meeting") {
            // As the host's end: the video room goes too.
            await tx.outbox.append(meetingEndedEvent({ id }, now), now);
          }
        }
        await audit(`${type}.deleted`, { present: removed }, { present: false });
        break;
      }
      case "warn":
        if (ownerId) {
          const categories = [...new Set(closed.map((r) => r.category))].sort() as ReportCategory[];
          await tx.outbox.append(
            authorWarned.event(ownerId, { user_id: ownerId, target_type: type, categories }),
            now,
          );
          await audit("author.warned", { warned: false }, { warned: true });
        }
        break;
      case "suspend":
        if (ownerId) {
          await suspendForModeration(tx, actor, ownerId, { report_target: `${type}:${id}` }, now);
        }
        break;
      case "approve":
      case "dismiss":
        // Approving, or finding nothing wrong, releases what a filter held (nothing when not held):
        // in this transaction, a held message delivered as a new one (its message.sent written).
        if (isHoldable(type) && (await tx.targetReports.release(type, id, now))) {
          await audit(`${type}.released`, { held: true }, { held: false });
        }
        break;
      default: {
        const unknown: never = action;
        throw new Error(`unknown decision ${String(unknown)}`);
      }
    }
    for (const report of closed) {
      await tx.audit.record(
        {
          actor,
          action: "report.moderated",
          targetType: "report",
          targetId: report.id,
          before: { status: report.previousStatus },
          after: { status, action },
          details: { target_type: type, target_id: id, ...(input.note ? { note: input.note } : {}) },
        },
        now,
      );
      const notice = targetReportClosedEvent(report, status, action);
      if (notice) {
        await tx.outbox.append(notice, now);
      }
    }

    return closed.map(({ previousStatus: _, ...report }) => report);
  });
};
