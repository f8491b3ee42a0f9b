import { z } from "zod";
import { idParamSchema } from "./common";
import { roleSchema, userSchema, userStatusSchema } from "./identity";
import { type CollectionKind, defineOperations, type StatusKind } from "./operation";

export const changeRoleRequestSchema = z
  .object({ role: roleSchema })
  .meta({ example: { role: "accountant" } });

/** The statuses an administrator may set on a user (`PATCH /admin/users/{id}/status`). */
export const changeUserStatusRequestSchema = z
  .object({ status: z.enum(["active", "suspended"]) })
  .meta({ id: "UserStatusChange", example: { status: "suspended" } });

/** `GET /admin/users` items. */
export const adminUserSchema = userSchema.meta({ id: "AdminUser" });

/** `GET /admin/accountants` items: the user and the services assigned to them. */
export const adminAccountantSchema = userSchema
  .extend({ service_ids: z.array(z.string()).meta({ description: "Assigned services." }) })
  .meta({ id: "AdminAccountant" });
export type AdminAccountantDto = z.infer<typeof adminAccountantSchema>;

/** The administrators' operations on users (their status: `PATCH /admin/{kind}/{id}/status`). */
export const identityAdminOperations = defineOperations({
  adminUsersRoleUpdate: {
    method: "PATCH",
    path: "/api/v1/admin/users/{id}/role",
    auth: "bearer",
    tags: ["Administration"],
    summary: "Change a user's role",
    params: idParamSchema,
    body: changeRoleRequestSchema,
    responses: { 200: { description: "The user with the new role.", data: userSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "last_admin", "validation_failed"],
  },
});

/** `GET /admin/users`. */
export const usersCollection = {
  status: userStatusSchema,
  item: adminUserSchema,
  searches: "a substring of the email, username or display name",
} as const satisfies CollectionKind;

/** `PATCH /admin/users/{id}/status`. */
export const userStatusChange = {
  body: changeUserStatusRequestSchema,
  data: userSchema,
} as const satisfies StatusKind;
