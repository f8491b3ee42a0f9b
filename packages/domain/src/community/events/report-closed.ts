import { z } from "zod";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { type ModeratedReport, type ModerationAction, moderationActions } from "../community.types";

const outcomes: Record<(typeof moderationActions)[number] | "dismissed", string> = {
  hide_moment: "The moment you reported was hidden.",
  restore_moment: "The moment you reported stays visible.",
  suspend_user: "The author of the moment you reported was suspended.",
  none: "We reviewed the moment you reported and took no action.",
  dismissed: "We reviewed the moment you reported and took no action.",
};

/** A report was resolved or dismissed: its reporter is told the outcome. */
export const reportClosed = defineEventKind({
  kind: "report.closed",
  aggregateType: "moment_report",
  payload: z.object({
    report_id: z.uuid(),
    reporter_id: z.uuid(),
    moment_id: z.uuid(),
    status: z.enum(["resolved", "dismissed"]),
    action: z.enum(moderationActions).nullable(),
  }),
  deliver: (deps: NotifyDeps, event) => {
    const { payload } = event;

    return notify(deps, event, [
      {
        userId: payload.reporter_id,
        kind: event.kind,
        title: "Your report was reviewed",
        body: outcomes[payload.action ?? "dismissed"],
        data: {
          report_id: payload.report_id,
          moment_id: payload.moment_id,
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
