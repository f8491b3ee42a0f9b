import type { Actor } from "../shared/actor";
import type { IdentityDeps } from "./identity.deps";

/**
 * Deletes the caller's account: it is marked deleted and scrubbed of what identified it (email,
 * username, name, password; the email and username become free again), every session is revoked,
 * so its access tokens fail on the next request, its listings leave every public read, and the
 * deletion is audited.
 */
export const deleteMe = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  actor: Actor,
): Promise<void> => {
  const now = clock.now();
  await uow.run(async (tx) => {
    await tx.users.markDeleted(actor.userId, now);
    await tx.listings.setOwnerActive(actor.userId, false);
    await tx.sessions.revokeAllForUser(actor.userId, "account_deleted", now);
    await tx.audit.record(
      {
        actor,
        action: "user.deleted",
        targetType: "user",
        targetId: actor.userId,
        after: { status: "deleted" },
      },
      now,
    );
  });
};
