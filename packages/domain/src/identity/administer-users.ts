import type { Actor, Role } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import type { IdentityDeps } from "./identity.deps";
import { requireRole } from "./identity.policy";
import type { IdentityRepositories } from "./identity.ports";
import type { User } from "./identity.types";

/** The statuses an administrator may set on a user (CONTRACT.md §4). */
export const adminUserStatuses = ["active", "suspended"] as const;
export type AdminUserStatus = (typeof adminUserStatuses)[number];

/** The user an administrator may change: any but a deleted one (404, like an unknown id). */
const administrableUser = async (tx: IdentityRepositories, userId: string) => {
  const user = isUuid(userId) ? await tx.users.findById(userId) : null;
  if (!user || user.status === "deleted") {
    throw new NotFoundError("User");
  }

  return user;
};

/** Changes a user's role, audited in the same transaction (admin only; deleted users are 404). */
export const changeUserRole = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  actor: Actor,
  input: { userId: string; role: Role },
): Promise<User> => {
  requireRole(actor, "admin");
  const now = clock.now();

  return uow.run(async (tx) => {
    const before = await administrableUser(tx, input.userId);
    const user = await tx.users.setRole(input.userId, input.role, now);
    if (!user) {
      throw new NotFoundError("User");
    }
    await tx.audit.record(
      {
        actor,
        action: "user.role_changed",
        targetType: "user",
        targetId: user.id,
        details: { from: before.role, to: user.role },
      },
      now,
    );

    return user;
  });
};

/**
 * Suspends or reactivates a user, audited. Suspension revokes every session, so the user's access
 * tokens fail on the next request; activating a pending account also counts as verifying it.
 */
export const changeUserStatus = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  actor: Actor,
  input: { userId: string; status: AdminUserStatus },
): Promise<User> => {
  requireRole(actor, "admin");
  const now = clock.now();

  return uow.run(async (tx) => {
    const before = await administrableUser(tx, input.userId);
    const user = await tx.users.setStatus(input.userId, input.status, now);
    if (!user) {
      throw new NotFoundError("User");
    }
    if (input.status === "suspended") {
      await tx.sessions.revokeAllForUser(user.id, "account_suspended", now);
    }
    await tx.audit.record(
      {
        actor,
        action: "user.status_changed",
        targetType: "user",
        targetId: user.id,
        details: { from: before.status, to: user.status },
      },
      now,
    );

    return user;
  });
};
