import { identityAdminOperations, userStatusChange, usersCollection } from "@agora/contracts/identity.admin";
import { adminListUsers } from "@agora/domain/identity/admin-list-users";
import { changeUserRole } from "@agora/domain/identity/change-user-role";
import { changeUserStatus } from "@agora/domain/identity/change-user-status";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { type AdminKinds, collectionKind, statusKind } from "../administration/administration.kinds";
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
 * The user kinds: `GET /admin/users`, and `PATCH /admin/users/{id}/status`, where suspending
 * revokes every session (the user's access tokens fail on the next request) and activating a
 * pending account also counts as verifying it.
 */
export const identityAdminKinds = ({ identity }: { identity: IdentityDeps }): AdminKinds => ({
  collections: {
    users: collectionKind(usersCollection, async (actor, filter, page) => {
      const found = await adminListUsers(identity, actor, filter, page);

      return { total: found.total, items: found.items.map(toUserDto) };
    }),
  },
  statuses: {
    users: statusKind(userStatusChange, async (actor, id, { status }) =>
      toUserDto(await changeUserStatus(identity, actor, { userId: id, status })),
    ),
  },
});
