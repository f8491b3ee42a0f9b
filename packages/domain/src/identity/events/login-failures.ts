import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import type { IdentityMailDeps } from "../identity.deps";
import { loginFailuresMail } from "../mail-templates";

/**
 * Wrong passwords for an address reached LOGIN_FAILURE_NOTICE_PER_EMAIL in the window, from any
 * number of clients. Written alike whether or not the address has an account (`user_id` null then,
 * so the sign-in answer and its timing say nothing); the owner of an account is told by mail.
 */
export const loginFailures = defineEventKind({
  kind: "identity.login_failures",
  aggregateType: "user",
  payload: z.object({ user_id: z.uuid().nullable(), failures: z.number().int().positive() }),
  deliver: async ({ users, mailer }: Pick<IdentityMailDeps, "users" | "mailer">, { payload }) => {
    if (!payload.user_id) {
      return;
    }
    const user = await users.findById(payload.user_id);
    if (!user || user.status === "deleted") {
      return;
    }
    await mailer.send(
      loginFailuresMail({
        to: user.email,
        name: user.displayName || user.username,
        failures: payload.failures,
      }),
    );
  },
});
