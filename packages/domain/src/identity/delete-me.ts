import type { Actor } from "../common/actor";
import { mediaObjectsDeleted, OBJECTS_PER_EVENT } from "../media/events/objects-deleted";
import { allObjectKeys } from "../media/media.types";
import { keepAnActiveAdmin } from "./change-user-role";
import type { IdentityDeps } from "./identity.deps";
import type { IdentityTransaction } from "./identity.transaction";

/**
 * Erases what the account published, in the deleting transaction (docs/accounts.md, "Deletion:
 * what is erased and what is kept and why"): the provider profile's name, bio and phone (the row
 * stays, orders and sales refer to it; its listings leave every public read), the dating profile,
 * moments (with their likes, views, comments and reports) and comments elsewhere, the rows of its
 * media (not payment evidence), the notes of its orders, its inbox, its push registrations and its
 * data exports. The media and export objects are deleted from
 * the object store by the outbox worker once this commits.
 */
const erasePublished = async (tx: IdentityTransaction, userId: string, now: Date): Promise<void> => {
  await tx.listings.setOwnerActive(userId, false);
  const provider = await tx.providers.findByUserId(userId);
  if (provider) {
    await tx.providers.update(provider.id, { displayName: "", bio: "", phone: null }, now);
    await tx.listings.setProviderName(provider.id, "");
  }
  await tx.datingProfiles.deleteForUser(userId);
  await tx.comments.deleteByAuthor(userId);
  await tx.moments.deleteByAuthor(userId);
  // Every object of each asset under either key layout: the upload, and its served copies.
  const objectKeys = [
    ...(await tx.media.deletePublishedBy(userId)).flatMap(allObjectKeys),
    ...(await tx.dataExports.closeAllForUser(userId)),
  ];
  for (let start = 0; start < objectKeys.length; start += OBJECTS_PER_EVENT) {
    await tx.outbox.append(
      mediaObjectsDeleted.event(userId, { object_keys: objectKeys.slice(start, start + OBJECTS_PER_EVENT) }),
      now,
    );
  }
  await tx.orders.clearCustomerNotes(userId, now);
  await tx.notifications.deleteForUser(userId);
  await tx.devices.deleteForUser(userId);
};

/**
 * Deletes the caller's account: it is marked deleted and scrubbed of what identified it (email,
 * username, name, password; the email and username become free again), what it published is
 * erased (erasePublished), every session is revoked, so its access tokens fail on the next
 * request, and the deletion is audited. One transaction for every row. The last active
 * administrator cannot delete their account (409 last_admin; make another user an admin first).
 */
export const deleteMe = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  actor: Actor,
): Promise<void> => {
  const now = clock.now();
  await uow.run(async (tx) => {
    await keepAnActiveAdmin(tx, actor.userId);
    await tx.users.markDeleted(actor.userId, now);
    await erasePublished(tx, actor.userId, now);
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
