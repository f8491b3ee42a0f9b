import { z } from "zod";
import { roleSchema } from "./identity";

export const changeRoleRequestSchema = z.object({ role: roleSchema });

/** The statuses an administrator may set on a user (`PATCH /admin/users/{id}/status`). */
export const changeUserStatusRequestSchema = z
  .object({ status: z.enum(["active", "suspended"]) })
  .meta({ id: "UserStatusChange" });
