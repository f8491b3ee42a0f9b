import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import type { IdentityMailDeps } from "../identity.deps";
import { emailChangedMail, emailUndoLink } from "../mail-templates";
import { emailUndoToken } from "../secrets";

/** How long the old address can undo a change (email_change_undos.expires_at). */
export const EMAIL_UNDO_DAYS = 7;

/**
 * An account's email address was changed: its old address is told, with the undo link
 * (EMAIL_UNDO_URL with a token). The payload holds the undo's id, not its token: the delivery
 * derives the token from the id under its own key (secrets.ts: emailUndoToken), so nothing
 * that opens the account is at rest in the outbox. The old address is a fact the mail needs (the
 * account no longer has it). Mailing twice (at-least-once delivery) sends the same link.
 */
export const emailChanged = defineEventKind({
  kind: "identity.email_changed",
  aggregateType: "user",
  payload: z.object({ user_id: z.uuid(), undo_id: z.uuid(), old_email: z.string() }),
  deliver: async (
    {
      users,
      mailer,
      emailUndoKey,
      emailUndoUrl,
    }: Pick<IdentityMailDeps, "users" | "mailer" | "emailUndoKey" | "emailUndoUrl">,
    { payload },
  ) => {
    const user = await users.findById(payload.user_id);
    if (!user || user.status === "deleted") {
      return;
    }
    await mailer.send(
      emailChangedMail({
        to: payload.old_email,
        name: user.displayName || user.username,
        link: emailUndoLink(emailUndoUrl, emailUndoToken(emailUndoKey, payload.undo_id)),
        validDays: EMAIL_UNDO_DAYS,
      }),
    );
  },
});
