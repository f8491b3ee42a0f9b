import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import { CODE_POLICY, type IdentityMailDeps } from "../identity.deps";
import { codePurposes, type User } from "../identity.types";
import { mailCode } from "../send-code";

/** Whether the account may get a code of this purpose now (checked at delivery, on current state). */
const eligible = async (
  deps: IdentityMailDeps,
  user: User,
  purpose: (typeof codePurposes)[number],
): Promise<boolean> => {
  switch (purpose) {
    case "verification":
      return user.status === "pending_verification";
    case "reset":
      // A pending account too: the reset code proves the mailbox, as verification does, so the
      // address's owner can take over a registration someone else made (confirmPasswordReset).
      return user.status === "active" || user.status === "pending_verification";
    case "email_change":
      // Never requested by email alone: the change's code is mailed by its request (sendCode).
      return false;
    case "sign_in": {
      // A resend only continues a sign-in in progress: a live code issued after the password.
      if (user.status !== "active") {
        return false;
      }
      const pending = await deps.codes.find(user.id, "sign_in");
      const now = deps.clock.now();

      return Boolean(
        pending &&
          !pending.consumedAt &&
          pending.expiresAt > now &&
          pending.attempts < CODE_POLICY.maxAttempts,
      );
    }
    default: {
      const unreachable: never = purpose;

      return unreachable;
    }
  }
};

/**
 * A code mail asked for by an email-only request (password reset, verification and sign-in
 * resends). The request writes this event whether or not the address has an account (`user_id`
 * null), so its status and its time are the same either way; the code is generated here, at
 * delivery, and never stored anywhere but as its HMAC. Nothing is mailed to an ineligible account,
 * inside the cooldown, or while the purpose is locked. A provider failure throws: the event backs
 * off and is retried, and the failed attempt leaves no code behind.
 */
export const codeRequested = defineEventKind({
  kind: "identity.code_requested",
  aggregateType: "user",
  payload: z.object({ user_id: z.uuid().nullable(), purpose: z.enum(codePurposes) }),
  deliver: async (deps: IdentityMailDeps, { payload }) => {
    if (!payload.user_id) {
      return;
    }
    const user = await deps.users.findById(payload.user_id);
    if (!user || !(await eligible(deps, user, payload.purpose))) {
      return;
    }
    await mailCode(deps, user, payload.purpose);
  },
});
