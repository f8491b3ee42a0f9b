import { userSchema, userStatusSchema } from "@agora/contracts/identity";
import {
  adminUserSchema,
  changeUserStatusRequestSchema,
  identityAdminOperations,
} from "@agora/contracts/identity.admin";
import { adminListUsers } from "@agora/domain/identity/admin-list-users";
import { changeUserRole } from "@agora/domain/identity/change-user-role";
import { type AdminUserStatus, changeUserStatus } from "@agora/domain/identity/change-user-status";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import type { UserStatus } from "@agora/domain/identity/identity.types";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import type { CollectionKind, StatusKind } from "../administration/administration.kinds";
import { toUserDto } from "./identity.presenter";

export const identityAdminRoutes = ({ identity }: { identity: IdentityDeps }): Handled[] => [
  handle(
    identityAdminOperations.adminUsersRoleUpdate,
    async (c) => {
      const user = await changeUserRole(identity, actorOf(c), {
        userId: c.req.valid("param").id,
        role: c.req.valid("json").role,
      });

      return ok(c, toUserDto(user));
    },
    { roles: ["admin"] },
  ),
];

/**
 * `PATCH /admin/users/{id}/status`: suspending revokes every session (the user's access tokens
 * fail on the next request); activating a pending account also counts as verifying it.
 */
export const userStatusKind = ({ identity }: { identity: IdentityDeps }): StatusKind<AdminUserStatus> => ({
  request: changeUserStatusRequestSchema,
  response: userSchema,
  change: async (actor, id, { status }) =>
    toUserDto(await changeUserStatus(identity, actor, { userId: id, status })),
});

/** `GET /admin/users`. */
export const usersKind = ({ identity }: { identity: IdentityDeps }): CollectionKind<UserStatus> => ({
  status: userStatusSchema,
  searches: "a substring of the email, username or display name",
  item: adminUserSchema,
  list: async (actor, filter, page) => {
    const found = await adminListUsers(identity, actor, filter, page);

    return { total: found.total, items: found.items.map(toUserDto) };
  },
});
