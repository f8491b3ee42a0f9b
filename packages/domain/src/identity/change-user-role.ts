import type { Actor, Role } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import type { Clock } from "../common/clock";
import type { UnitOfWork } from "../common/unit-of-work";
import { withdrawProviderApproval } from "../marketplace/provider-standing";
import { LastAdminError } from "./identity.errors";
import { requireRole } from "./identity.policy";
import type { IdentityRepositories } from "./identity.ports";
import type { IdentityTransaction } from "./identity.transaction";
import type { User } from "./identity.types";

/** The user an administrator may change: any but a deleted one (404, like an unknown id). */
export const findAdministrableUser = async (tx: IdentityRepositories, userId: string) => {
  const user = await tx.users.findById(userId);
  if (!user || user.status === "deleted") {
    throw new NotFoundError("User");
  }

  return user;
};

/**
 * Refuses (409 last_admin) a change that takes `userId` out of the active administrators when it
 * is the last one. The active administrators' rows are locked first, so two such changes in
 * parallel (two admins demoting, suspending or deleting each other or themselves) serialize: the
 * second sees the first's result. Every path that ends an admin's activity calls it inside its
 * transaction: the role and status routes, moderation's `suspend_user`, and deleting one's account.
 */
export const keepAnActiveAdmin = async (
  tx: Pick<IdentityRepositories, "users">,
  userId: string,
): Promise<void> => {
  const admins = await tx.users.lockActiveAdmins();
  if (admins.includes(userId.toLowerCase()) && admins.length <= 1) {
    throw new LastAdminError();
  }
};

/**
 * Changes a user's role, audited in the same transaction (admin only; deleted users are 404; the
 * last active administrator cannot lose the role, 409 last_admin). Setting the role to `member`
 * withdraws the user's provider approval in the same transaction (provider-standing.ts): the
 * listings leave public reads and every provider path answers 403 until a new approval.
 */
export const changeUserRole = async (
  { uow, clock }: { uow: UnitOfWork<IdentityTransaction>; clock: Clock },
  actor: Actor,
  input: { userId: string; role: Role },
): Promise<User> => {
  requireRole(actor, "admin");
  const now = clock.now();

  return uow.run(async (tx) => {
    if (input.role !== "admin") {
      await keepAnActiveAdmin(tx, input.userId);
    }
    const before = await findAdministrableUser(tx, input.userId);
    const user = await tx.users.setRole(input.userId, input.role, now);
    if (!user) {
      throw new NotFoundError("User");
    }
    // After the user's row (locked by the update above), as an approval takes them.
    const withdrawn = user.role === "member" ? await withdrawProviderApproval(tx, user.id, now) : null;
    await tx.audit.record(
      {
        actor,
        action: "user.role_changed",
        targetType: "user",
        targetId: user.id,
        before: { role: before.role },
        after: { role: user.role },
        ...(withdrawn ? { details: { provider_approval_withdrawn: withdrawn.id } } : {}),
      },
      now,
    );

    return user;
  });
};
