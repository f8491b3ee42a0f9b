import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { IdentityDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import type { User } from "./identity.types";

const toUser = ({ passwordHash: _secret, ...user }: User & { passwordHash?: string }): User => user;

/** The caller's own account. */
export const getMe = async ({ repos }: Pick<IdentityDeps, "repos">, actor: Actor): Promise<User> => {
  const user = await repos.users.findById(actor.userId);
  if (!user) {
    throw new NotFoundError("User");
  }

  return toUser(user);
};

/** Changes the caller's username and display name (409 username_taken when another account has it). */
export const updateMe = async (
  { repos, clock }: Pick<IdentityDeps, "repos" | "clock">,
  actor: Actor,
  input: { username: string; displayName: string },
): Promise<User> => {
  const updated = await repos.users.updateProfile(
    actor.userId,
    { username: input.username.trim(), displayName: input.displayName.trim() },
    clock.now(),
  );
  if (updated === "username_taken") {
    throw new UsernameTakenError();
  }
  if (!updated) {
    throw new NotFoundError("User");
  }

  return updated;
};

/**
 * Deletes the caller's account: it is marked deleted and scrubbed of what identified it (email,
 * username, name, password; the email and username become free again), every session is revoked,
 * so its access tokens fail on the next request, and the deletion is audited.
 */
export const deleteMe = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  actor: Actor,
): Promise<void> => {
  const now = clock.now();
  await uow.run(async (tx) => {
    await tx.users.markDeleted(actor.userId, now);
    await tx.sessions.revokeAllForUser(actor.userId, "account_deleted", now);
    await tx.audit.record({ actor, action: "user.deleted", targetType: "user", targetId: actor.userId }, now);
  });
};
