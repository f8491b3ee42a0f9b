import { z } from "zod";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import { reportCategories, reportTargetTypes } from "../reports.types";

const targetNames: Record<(typeof reportTargetTypes)[number], string> = {
  moment: "one of your moments",
  comment: "one of your comments",
  message: "one of your messages",
  user: "your account",
  dating_profile: "your dating profile",
  listing: "one of your listings",
  meeting: "one of your meetings",
};

/**
 * A moderator warned the owner of reported content (decision `warn`): they are told once, with
 * the target type and the reports' categories only (no reporter, no note, no report id).
 */
export const authorWarned = defineEventKind({
  kind: "moderation.author_warned",
  aggregateType: "user",
  payload: z.object({
    user_id: z.uuid(),
    target_type: z.enum(reportTargetTypes),
    categories: z.array(z.enum(reportCategories)),
  }),
  deliver: (deps: NotifyDeps, event) => {
    const { payload } = event;

    return notify(deps, event, [
      {
        userId: payload.user_id,
        kind: event.kind,
        title: "A warning from the moderators",
        body:
          `Members reported ${targetNames[payload.target_type]} (${payload.categories.join(", ")}) and a ` +
          "moderator found it breaks the community rules. Further breaches can lead to suspension.",
        data: { target_type: payload.target_type, categories: payload.categories },
      },
    ]);
  },
});
