import type { Actor } from "../common/actor";
import { UnauthorizedError } from "../common/app-error";
import { attemptCode } from "./code-limits";
import { EMAIL_UNDO_DAYS, emailChanged } from "./events/email-changed";
import { checkPassword, countPasswordTry, limitAuthRequestsByIp, normalizeEmail } from "./guards";
import { type IdentityDeps, identityMailDeps } from "./identity.deps";
import { EmailTakenError, InvalidCodeError, InvalidTokenError } from "./identity.errors";
import type { IdentityRepositories } from "./identity.ports";
import { emailChangeAttemptMail } from "./mail-templates";
import { codeHashes, emailUndoToken, hashToken } from "./secrets";
import { sendCode } from "./send-code";

/**
 * Who holds `email` for a change by `userId`: "free" (nobody, or a registration still pending
 * verification: it holds nothing, docs/accounts.md "Pending registrations"), the other account that
 * holds it, or "reserved" (the account's own address, or the old address of a change whose undo is
 * live, another account's).
 */
const holderOf = async (
  repos: Pick<IdentityRepositories, "users" | "emailChanges">,
  userId: string,
  email: string,
  now: Date,
): Promise<"free" | "reserved" | { id: string; email: string; name: string }> => {
  const holder = await repos.users.findByEmail(email);
  const reservedBy = await repos.emailChanges.reservedBy(email, now);
  if (holder?.id === userId || (reservedBy !== null && reservedBy !== userId)) {
    return "reserved";
  }
  if (!holder || holder.status === "pending_verification" || holder.status === "deleted") {
    return "free";
  }

  return { id: holder.id, email: holder.email, name: holder.displayName || holder.username };
};

/**
 * Asks to move the caller's account to `newEmail` (docs/accounts.md, "Changing the email
 * address"): the password is checked under sign-in's guessing limits (countPasswordTry and checkPassword: 401
 * invalid_credentials, 429), the change is recorded as the account's one pending change (replacing
 * an earlier one) and a code of purpose email_change is mailed to the new address while the client
 * waits (sendCode: its cooldowns and locks are 429, a provider failure 503 with no code kept).
 *
 * An address another account holds (or one reserved by a live undo) answers the same 202 after the
 * same work: the code is issued and stored just the same, but mailed to nobody; the holder gets a
 * short notice instead (sent while the client waits, as a registration of a taken address does, so
 * one mail is sent either way). No code exists for the address's mailbox, so the change cannot
 * complete. A registration still pending verification does not hold the address.
 */
export const requestEmailChange = async (
  deps: IdentityDeps,
  actor: Actor,
  input: { newEmail: string; password: string; clientIp: string },
): Promise<void> => {
  const { repos, clock } = deps;
  const current = await repos.users.findById(actor.userId);
  if (current?.status !== "active") {
    throw new UnauthorizedError();
  }
  const guess = await countPasswordTry(deps, current.email, input.clientIp);
  const user = await checkPassword(deps, guess, current, input.password);
  const newEmail = normalizeEmail(input.newEmail);
  const now = clock.now();
  const holder = await holderOf(repos, user.id, newEmail, now);
  await repos.emailChanges.putPending(user.id, newEmail, now);
  const mailed = { id: user.id, email: newEmail, displayName: user.displayName, username: user.username };
  if (holder === "free") {
    await sendCode(identityMailDeps(deps), mailed, "email_change");

    return;
  }
  await sendCode(identityMailDeps(deps), mailed, "email_change", {
    mail: holder === "reserved" ? null : emailChangeAttemptMail({ to: holder.email, name: holder.name }),
  });
};

/**
 * Switches the caller's address to the pending change's with the mailed code, in one transaction:
 * the account's row is locked, the code tried (a wrong one counts as for any code; 422
 * invalid_code), the address checked again (another active or suspended account holding it now,
 * or a live undo reserving it, is 409 email_taken; a registration still pending verification is
 * removed), then the address set (the unique index decides a race with another change: the loser
 * answers 409 email_taken and keeps nothing, its code unspent), marked verified, the pending change
 * removed, the undo recorded (its token stored as a hash only), the change audited and the old
 * address's mail queued. Sessions stay: the owner made the change.
 */
export const verifyEmailChange = async (
  deps: IdentityDeps,
  actor: Actor,
  input: { code: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { uow, clock, settings, ids } = deps;
  const now = clock.now();
  const hashes = codeHashes(settings.codeKey, actor.userId, "email_change", input.code);
  const outcome = await uow.run(async (tx) => {
    const user = await tx.users.findByIdForUpdate(actor.userId);
    if (user?.status !== "active") {
      return "none" as const;
    }
    const attempt = await attemptCode(tx, {
      userId: user.id,
      purpose: "email_change",
      codeHashes: hashes,
      now,
    });
    if (attempt !== "accepted") {
      return attempt;
    }
    const pending = await tx.emailChanges.findPendingForUpdate(user.id);
    if (!pending) {
      return "none" as const;
    }
    const holder = await holderOf(tx, user.id, pending.newEmail, now);
    if (holder !== "free") {
      throw new EmailTakenError();
    }
    const pendingHolder = await tx.users.findByEmail(pending.newEmail);
    if (pendingHolder?.status === "pending_verification") {
      await tx.users.deletePending(pendingHolder.id);
    }
    const set = await tx.users.setEmail(user.id, pending.newEmail, now);
    if (set !== "updated") {
      throw new EmailTakenError();
    }
    await tx.emailChanges.deletePending(user.id);
    const undoId = ids.next();
    await tx.emailChanges.createUndo({
      id: undoId,
      userId: user.id,
      tokenHash: hashToken(emailUndoToken(settings.emailUndoKey, undoId)),
      oldEmail: user.email,
      newEmail: pending.newEmail,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EMAIL_UNDO_DAYS * 24 * 3600 * 1000),
    });
    // No address in clear, as no audit record keeps one: the undo's id leads to them.
    await tx.audit.record(
      {
        actor,
        action: "user.email_changed",
        targetType: "user",
        targetId: user.id,
        after: { email_verified: true },
        details: { undo_id: undoId },
      },
      now,
    );
    await tx.outbox.append(
      emailChanged.event(user.id, { user_id: user.id, undo_id: undoId, old_email: user.email }),
      now,
    );

    return "accepted" as const;
  });
  if (outcome !== "accepted") {
    throw new InvalidCodeError();
  }
};

/**
 * Undoes an email change from the link mailed to the old address (within EMAIL_UNDO_DAYS, once),
 * in one transaction: the old address is restored, whatever the account's address is now (changed
 * again since included: a thief's second change must not void the owner's link; a deleted account
 * answers 422 invalid_token like an unknown, expired or used token), every undo of the account
 * spent (a later change's link would move it away again), every session of the account revoked,
 * and the undo audited. The owner then resets the password from the restored
 * address. Roles and statuses are untouched, so the last-administrator rule is not at stake.
 */
export const undoEmailChange = async (
  deps: IdentityDeps,
  input: { token: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { uow, clock } = deps;
  const now = clock.now();
  const tokenHash = hashToken(input.token);
  const restored = await uow.run(async (tx) => {
    const undo = await tx.emailChanges.findUndoForUpdate(tokenHash);
    if (!undo || undo.usedAt || undo.expiresAt <= now) {
      return false;
    }
    const user = await tx.users.findByIdForUpdate(undo.userId);
    // Whatever the address is now: the link proves the old mailbox, and a thief who changed the
    // address again must not make it useless.
    if (!user || user.status === "deleted") {
      return false;
    }
    // The old address was reserved by this undo, so nobody else can hold it; a unique violation
    // would still roll everything back.
    if ((await tx.users.setEmail(user.id, undo.oldEmail, now)) !== "updated") {
      throw new EmailTakenError();
    }
    await tx.emailChanges.endUndosOf(user.id, now);
    await tx.emailChanges.deletePending(user.id);
    await tx.sessions.revokeAllForUser(user.id, "email_change_undone", now);
    await tx.audit.record(
      {
        actor: null,
        action: "user.email_change_undone",
        targetType: "user",
        targetId: user.id,
        details: { undo_id: undo.id },
      },
      now,
    );

    return true;
  });
  if (!restored) {
    throw new InvalidTokenError();
  }
};
