import { z } from "zod";
import { roleSchema, userSchema } from "./identity";

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
