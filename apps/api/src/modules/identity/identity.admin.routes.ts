import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import { userSchema, userStatusSchema } from "@agora/contracts/identity";
import {
  adminUserSchema,
  changeRoleRequestSchema,
  changeUserStatusRequestSchema,
} from "@agora/contracts/identity.admin";
import { adminListUsers } from "@agora/domain/identity/admin-list-users";
import { changeUserRole } from "@agora/domain/identity/change-user-role";
import { type AdminUserStatus, changeUserStatus } from "@agora/domain/identity/change-user-status";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import type { UserStatus } from "@agora/domain/identity/identity.types";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import type { CollectionKind, StatusKind } from "../administration/administration.kinds";
import { toUserDto } from "./identity.presenter";

/** Mounted at /api/v1/admin. */
export const createIdentityAdminRoutes = ({ identity }: { identity: IdentityDeps }) => {
  const changeRole = createRoute({
    method: "patch",
    path: "/users/{id}/role",
    tags: ["Administration"],
    summary: "Change a user's role",
    description:
      "Audited. The new role applies to the user's next request (roles are read per request). The last " +
      "active administrator cannot lose the role: 409 `last_admin` (promote another user first; two " +
      "administrators demoting each other at once cannot leave none).",
    security: [{ bearerAuth: [] }],
    middleware: [requireAuth(identity), requireRoles("admin")],
    request: { params: idParamSchema, ...body(changeRoleRequestSchema) },
    responses: {
      200: json(successEnvelope(userSchema), "The user with the new role."),
      ...errors("unauthorized", "forbidden", "not_found", "last_admin", "validation_failed"),
    },
  });

  return createRouter().openapi(changeRole, async (c) => {
    const user = await changeUserRole(identity, actorOf(c), {
      userId: c.req.valid("param").id,
      role: c.req.valid("json").role,
    });

    return ok(c, toUserDto(user));
  });
};

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
