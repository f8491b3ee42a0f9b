import { changeRoleRequestSchema, changeStatusRequestSchema, userSchema } from "@agora/contracts/auth";
import { successEnvelope } from "@agora/contracts/envelope";
import { adminUserStatuses, changeUserRole, changeUserStatus } from "@agora/domain/identity/administer-users";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { NotFoundError, ValidationError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toUserDto } from "../auth/auth.presenter";

const tags = ["Administration"];
const secured = [{ bearerAuth: [] }];

export type AdminRoutesDeps = { identity: IdentityDeps };

export const createAdminRoutes = ({ identity }: AdminRoutesDeps) => {
  const admin = [requireAuth(identity), requireRoles("admin")];

  const changeRole = createRoute({
    method: "patch",
    path: "/users/{id}/role",
    tags,
    summary: "Change a user's role",
    description: "Audited. The new role applies to the user's next request (roles are read per request).",
    security: secured,
    middleware: admin,
    request: { params: z.object({ id: z.string() }), ...body(changeRoleRequestSchema) },
    responses: {
      200: json(successEnvelope(userSchema), "The user with the new role."),
      ...errors(401, 403, 404, 422),
    },
  });

  const changeStatus = createRoute({
    method: "patch",
    path: "/{kind}/{id}/status",
    tags,
    summary: "Change the status of a user or a listing",
    description:
      "`kind` is `users` (status `active` | `suspended`) or `listings` (`active` | `inactive` | `suspended`). " +
      "Audited. Suspending a user revokes every session, so its access tokens fail on the next request; " +
      "activating a pending user also counts as verifying it. Any other kind is 404; a status not allowed " +
      "for the kind is 422.",
    security: secured,
    middleware: admin,
    request: {
      params: z.object({ kind: z.string().meta({ example: "users" }), id: z.string() }),
      ...body(changeStatusRequestSchema),
    },
    responses: {
      200: json(successEnvelope(userSchema), "The updated resource."),
      ...errors(401, 403, 404, 422),
    },
  });

  return createRouter()
    .openapi(changeRole, async (c) => {
      const user = await changeUserRole(identity, actorOf(c), {
        userId: c.req.valid("param").id,
        role: c.req.valid("json").role,
      });

      return ok(c, toUserDto(user));
    })
    .openapi(changeStatus, async (c) => {
      const { kind, id } = c.req.valid("param");
      const { status } = c.req.valid("json");
      if (kind !== "users") {
        throw new NotFoundError(`Resource kind ${kind}`);
      }
      if (!(adminUserStatuses as readonly string[]).includes(status)) {
        throw new ValidationError([
          { path: "status", message: `must be one of ${adminUserStatuses.join(", ")}` },
        ]);
      }
      const user = await changeUserStatus(identity, actorOf(c), {
        userId: id,
        status: status as (typeof adminUserStatuses)[number],
      });

      return ok(c, toUserDto(user));
    });
};
