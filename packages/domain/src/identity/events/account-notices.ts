import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import type { IdentityMailDeps } from "../identity.deps";
import { newSignInMail, passwordChangedMail } from "../mail-templates";

type NoticeDeps = Pick<IdentityMailDeps, "users" | "mailer">;

/** The account to mail, unless it was deleted meanwhile (then nobody is told). */
const ownerOf = async ({ users }: NoticeDeps, userId: string) => {
  const user = await users.findById(userId);

  return user && user.status !== "deleted" ? user : null;
};

/**
 * A signed-in session changed the account's password (change-password.ts): its owner is told by
 * mail, with how many other sessions it ended, so a change they did not make does not go unseen.
 */
export const passwordChanged = defineEventKind({
  kind: "identity.password_changed",
  aggregateType: "user",
  payload: z.object({
    user_id: z.uuid(),
    changed_at: z.iso.datetime(),
    sessions_ended: z.number().int().nonnegative(),
  }),
  deliver: async (deps: NoticeDeps, { payload }) => {
    const user = await ownerOf(deps, payload.user_id);
    if (!user) {
      return;
    }
    await deps.mailer.send(
      passwordChangedMail({
        to: user.email,
        name: user.displayName || user.username,
        at: new Date(payload.changed_at),
        sessionsEnded: payload.sessions_ended,
      }),
    );
  },
});

/**
 * A sign-in from a platform and address prefix the account has not signed in from in the last 90
 * days (verify-login.ts; not an account's first sign-in): its owner is told by mail, with where
 * to end the session. The payload has the session's origin as the sign-in recorded it (the
 * address's prefix, never the address).
 */
export const newSignIn = defineEventKind({
  kind: "identity.new_sign_in",
  aggregateType: "user",
  payload: z.object({
    user_id: z.uuid(),
    session_id: z.uuid(),
    signed_in_at: z.iso.datetime(),
    platform: z.string().nullable(),
    address_hint: z.string().nullable(),
    user_agent: z.string().nullable(),
  }),
  deliver: async (deps: NoticeDeps, { payload }) => {
    const user = await ownerOf(deps, payload.user_id);
    if (!user) {
      return;
    }
    await deps.mailer.send(
      newSignInMail({
        to: user.email,
        name: user.displayName || user.username,
        at: new Date(payload.signed_in_at),
        platform: payload.platform,
        addressHint: payload.address_hint,
        userAgent: payload.user_agent,
      }),
    );
  },
});
