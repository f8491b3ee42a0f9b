import type { Actor } from "../common/actor";
import { keepAnActiveAdmin } from "../identity/change-user-role";
import type { CommunityDeps } from "./community.deps";
import { suspensionApplies } from "./moderation.policy";

type Tx = Parameters<Parameters<CommunityDeps["uow"]["run"]>[0]>[0];

/**
 * Suspends `userId` for a moderation decision, in the caller's transaction: the last active
 * administrator is 409 last_admin (keepAnActiveAdmin), their listings leave public reads, every
 * session is revoked, and the change is audited with `details`. A deleted or already suspended
 * account is left as it is (suspensionApplies).
 */
export const suspendForModeration = async (
  tx: Tx,
  actor: Actor,
  userId: string,
  details: Record<string, unknown>,
  now: Date,
): Promise<void> => {
  const author = await tx.users.findById(userId);
  if (!author || !suspensionApplies(author.status)) {
    return;
  }
  await keepAnActiveAdmin(tx, author.id);
  await tx.users.setStatus(author.id, "suspended", now);
  await tx.listings.setOwnerActive(author.id, false);
  await tx.sessions.revokeAllForUser(author.id, "account_suspended", now);
  await tx.audit.record(
    {
      actor,
      action: "user.status_changed",
      targetType: "user",
      targetId: author.id,
      before: { status: author.status },
      after: { status: "suspended" },
      details,
    },
    now,
  );
};
