import { z } from "zod";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { type ModeratedReport, type ModerationAction, moderationActions } from "../community.types";
import {
  type DecisionAction,
  decisionActions,
  type ReportTargetType,
  reportTargetTypes,
} from "../reports.types";

const outcomes: Record<(typeof moderationActions)[number] | "dismissed", string> = {
  hide_moment: "The moment you reported was hidden.",
  restore_moment: "The moment you reported stays visible.",
  suspend_user: "The author of the moment you reported was suspended.",
  none: "We reviewed the moment you reported and took no action.",
  dismissed: "We reviewed the moment you reported and took no action.",
};

/** How the notice names each target type. */
const targetNames: Record<ReportTargetType, string> = {
  moment: "moment",
  comment: "comment",
  message: "message",
  user: "account",
  dating_profile: "dating profile",
  listing: "listing",
  meeting: "meeting",
};

/** The notice of a decision on a target (POST /admin/reports/targets/.../decision). */
const decisionOutcome = (type: ReportTargetType, action: DecisionAction): string => {
  const name = targetNames[type];
  switch (action) {
    case "hide":
      return `The ${name} you reported was hidden.`;
    case "delete":
      return type === "meeting"
        ? "The meeting you reported was ended."
        : `The ${name} you reported was removed.`;
    case "warn":
      return type === "user"
        ? "The account you reported was warned."
        : `The author of the ${name} you reported was warned.`;
    case "suspend":
      return type === "user"
        ? "The account you reported was suspended."
        : `The author of the ${name} you reported was suspended.`;
    case "approve":
      return `We reviewed the ${name} you reported and it stays.`;
    case "dismiss":
      return `We reviewed the ${name} you reported and took no action.`;
    default: {
      const unknown: never = action;
      throw new Error(`unknown decision ${String(unknown)}`);
    }
  }
};

const actions = [...moderationActions, ...decisionActions] as const;

const isDecision = (action: (typeof actions)[number] | null): action is DecisionAction =>
  (decisionActions as readonly (string | null)[]).includes(action);

/**
 * A report was resolved or dismissed: its reporter is told the outcome. The moment routes' events
 * carry `moment_id` and a moderation action; a decision on any target carries `target_type`,
 * `target_id` and its decision (events of the previous release, without them, still deliver).
 */
export const reportClosed = defineEventKind({
  kind: "report.closed",
  aggregateType: "moment_report",
  payload: z.object({
    report_id: z.uuid(),
    reporter_id: z.uuid(),
    moment_id: z.uuid().optional(),
    target_type: z.enum(reportTargetTypes).optional(),
    target_id: z.uuid().optional(),
    status: z.enum(["resolved", "dismissed"]),
    action: z.enum(actions).nullable(),
  }),
  deliver: (deps: NotifyDeps, event) => {
    const { payload } = event;
    const { action, target_type: type } = payload;
    const body =
      type !== undefined && isDecision(action)
        ? decisionOutcome(type, action)
        : outcomes[isDecision(action) || action === null ? "dismissed" : action];

    return notify(deps, event, [
      {
        userId: payload.reporter_id,
        kind: event.kind,
        title: "Your report was reviewed",
        body,
        data: {
          report_id: payload.report_id,
          ...(payload.moment_id === undefined ? {} : { moment_id: payload.moment_id }),
          ...(payload.target_type === undefined
            ? {}
            : { target_type: payload.target_type, target_id: payload.target_id }),
          status: payload.status,
          action: payload.action,
        },
      },
    ]);
  },
});

/** The event of `report` closing as `status`, by a moderation `action` or (null) a status move. */
export const reportClosedEvent = (
  report: Pick<ModeratedReport, "id" | "reporterId" | "momentId">,
  status: "resolved" | "dismissed",
  action: ModerationAction | null,
) =>
  reportClosed.event(report.id, {
    report_id: report.id,
    reporter_id: report.reporterId,
    moment_id: report.momentId,
    status,
    action,
  });

/**
 * The event of a target's report closing by a decision; a filter's report (no reporter) has
 * nobody to tell, so none.
 */
export const targetReportClosedEvent = (
  report: { id: string; reporterId: string | null; targetType: ReportTargetType; targetId: string },
  status: "resolved" | "dismissed",
  action: DecisionAction,
) =>
  report.reporterId === null
    ? null
    : reportClosed.event(report.id, {
        report_id: report.id,
        reporter_id: report.reporterId,
        ...(report.targetType === "moment" ? { moment_id: report.targetId } : {}),
        target_type: report.targetType,
        target_id: report.targetId,
        status,
        action,
      });
