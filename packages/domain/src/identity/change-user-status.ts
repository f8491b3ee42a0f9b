import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { findAdministrableUser, keepAnActiveAdmin } from "./change-user-role";
import type { IdentityDeps } from "./identity.deps";
import { authorPresent, requireRole } from "./identity.policy";
import type { User } from "./identity.types";

/** The statuses an administrator may set on a user (the served OpenAPI document lists them). */
export const adminUserStatuses = ["active", "suspended"] as const;
export type AdminUserStatus = (typeof adminUserStatuses)[number];

/**
 * Suspends or reactivates a user, audited. Suspension revokes every session, so the user's access
 * tokens fail on the next request; activating a pending account also verifies its email.
 * The last active administrator cannot be suspended (409 last_admin). The owner's listings follow
 * the status: a suspended owner's listings are neither public nor orderable until reactivation.
 * Each of these effects is a step of this use case, in its transaction.
 */
export const changeUserStatus = async (
  { uow, clock }: Pick<IdentityDeps, "uow" | "clock">,
  actor: Actor,
  input: { userId: string; status: AdminUserStatus },
): Promise<User> => {
  requireRole(actor, "admin");
  const now = clock.now();

  return uow.run(async (tx) => {
    if (input.status !== "active") {
      await keepAnActiveAdmin(tx, input.userId);
    }
    const before = await findAdministrableUser(tx, input.userId);
    const user = await tx.users.setStatus(input.userId, input.status, now);
    if (!user) {
      throw new NotFoundError("User");
    }
    if (user.status === "active") {
      await tx.users.markEmailVerified(user.id, now);
    }
    await tx.listings.setOwnerActive(user.id, authorPresent(user.status));
    if (input.status === "suspended") {
      await tx.sessions.revokeAllForUser(user.id, "account_suspended", now);
    }
    await tx.audit.record(
      {
        actor,
        action: "user.status_changed",
        targetType: "user",
        targetId: user.id,
        before: { status: before.status },
        after: { status: user.status },
      },
      now,
    );

    return user;
  });
};
