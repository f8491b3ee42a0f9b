import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import type { IdentityMailDeps } from "../identity.deps";
import { codePurposes } from "../identity.types";
import { codesLockedMail } from "../mail-templates";

/**
 * An account reached the cap of wrong codes for a purpose: its owner is told by mail (once per
 * lock), with when codes of that purpose work again.
 */
export const codesLocked = defineEventKind({
  kind: "identity.codes_locked",
  aggregateType: "user",
  payload: z.object({ user_id: z.uuid(), purpose: z.enum(codePurposes), locked_until: z.iso.datetime() }),
  deliver: async ({ users, mailer }: Pick<IdentityMailDeps, "users" | "mailer">, { payload }) => {
    const user = await users.findById(payload.user_id);
    if (!user || user.status === "deleted") {
      return;
    }
    await mailer.send(
      codesLockedMail({
        to: user.email,
        name: user.displayName || user.username,
        purpose: payload.purpose,
        lockedUntil: new Date(payload.locked_until),
      }),
    );
  },
});
