import { successEnvelope } from "@agora/contracts/envelope";
import { userSchema } from "@agora/contracts/identity";
import { changeUserStatusRequestSchema } from "@agora/contracts/identity.admin";
import { listingSchema } from "@agora/contracts/marketplace";
import { changeListingStatusRequestSchema } from "@agora/contracts/marketplace.admin";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { NotFoundError, ValidationError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { issuesOf } from "../../http/errors";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import type { StatusKind } from "./administration.kinds";

/**
 * The cross-area administration routes: what belongs to no single area. Each `{kind}` is an
 * area's own (see StatusKind); this module only finds it.
 */
export const createAdministrationRoutes = ({
  identity,
  statusKinds,
}: {
  identity: IdentityDeps;
  statusKinds: Readonly<Record<string, StatusKind>>;
}) => {
  const changeStatus = createRoute({
    method: "patch",
    path: "/{kind}/{id}/status",
    tags: ["Administration"],
    summary: "Change the status of a user or a listing",
    description:
      "`kind` is `users` (status `active` | `suspended`) or `listings` (`active` | `inactive` | `suspended`). " +
      "Audited. Suspending a user revokes every session, so its access tokens fail on the next request; " +
      "activating a pending user also counts as verifying it. A suspended user's listings are neither " +
      "public nor orderable until the user is active again. The last active administrator cannot be " +
      "suspended: 409 `last_admin` (two administrators suspending each other at once cannot leave none). " +
      "Any other kind is 404; a status not allowed for the kind is 422.",
    security: [{ bearerAuth: [] }],
    middleware: [requireAuth(identity), requireRoles("admin")],
    request: {
      params: z.object({
        kind: z.string().meta({ description: "`users` or `listings`.", example: "users" }),
        id: z.string(),
      }),
      ...body(z.union([changeUserStatusRequestSchema, changeListingStatusRequestSchema])),
    },
    responses: {
      200: json(successEnvelope(z.union([userSchema, listingSchema])), "The updated user or listing."),
      ...errors(401, 403, 404, 409, 422),
    },
  });

  return createRouter().openapi(changeStatus, async (c) => {
    const { kind, id } = c.req.valid("param");
    const target = Object.hasOwn(statusKinds, kind) ? statusKinds[kind] : undefined;
    if (!target) {
      throw new NotFoundError(`Resource kind ${kind}`);
    }
    const parsed = target.request.safeParse(c.req.valid("json"));
    if (!parsed.success) {
      throw new ValidationError(issuesOf(parsed.error, "json"));
    }

    return ok(c, (await target.change(actorOf(c), id, parsed.data)) as z.infer<typeof userSchema>);
  });
};
