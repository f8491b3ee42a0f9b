import { changeRoleRequestSchema, changeStatusRequestSchema, userSchema } from "@agora/contracts/auth";
import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import { listingSchema, providerSchema } from "@agora/contracts/marketplace";
import { adminUserStatuses, changeUserRole, changeUserStatus } from "@agora/domain/identity/administer-users";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { adminListingStatuses, changeListingStatus } from "@agora/domain/marketplace/listings";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { approveProvider } from "@agora/domain/marketplace/providers";
import { NotFoundError, ValidationError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toUserDto } from "../auth/auth.presenter";
import { toListingDto } from "../listings/listings.presenter";
import { toProviderDto } from "../providers/providers.presenter";

const tags = ["Administration"];
const secured = [{ bearerAuth: [] }];

export type AdminRoutesDeps = { identity: IdentityDeps; marketplace: MarketplaceDeps };

const oneOf = (allowed: readonly string[], status: string) => {
  if (!allowed.includes(status)) {
    throw new ValidationError([{ path: "status", message: `must be one of ${allowed.join(", ")}` }]);
  }
};

export const createAdminRoutes = ({ identity, marketplace }: AdminRoutesDeps) => {
  const admin = [requireAuth(identity), requireRoles("admin")];

  const changeRole = createRoute({
    method: "patch",
    path: "/users/{id}/role",
    tags,
    summary: "Change a user's role",
    description: "Audited. The new role applies to the user's next request (roles are read per request).",
    security: secured,
    middleware: admin,
    request: { params: idParamSchema, ...body(changeRoleRequestSchema) },
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
      200: json(successEnvelope(z.union([userSchema, listingSchema])), "The updated user or listing."),
      ...errors(401, 403, 404, 422),
    },
  });

  const approve = createRoute({
    method: "post",
    path: "/providers/{id}/approve",
    tags,
    summary: "Approve a provider",
    description:
      "pending → approved in one transaction: the owner's role becomes `provider` (staff roles are kept), draft " +
      "listings whose subscription is already paid are published, and the decision is audited. Approving an " +
      "approved provider changes nothing.",
    security: secured,
    middleware: admin,
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(providerSchema), "The approved provider."),
      ...errors(401, 403, 404),
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
      if (kind === "users") {
        oneOf(adminUserStatuses, status);
        const user = await changeUserStatus(identity, actorOf(c), {
          userId: id,
          status: status as (typeof adminUserStatuses)[number],
        });

        return ok(c, toUserDto(user));
      }
      if (kind === "listings") {
        oneOf(adminListingStatuses, status);
        const listing = await changeListingStatus(marketplace, actorOf(c), {
          listingId: id,
          status: status as (typeof adminListingStatuses)[number],
        });

        return ok(c, toListingDto(listing, marketplace.clock.now()));
      }
      throw new NotFoundError(`Resource kind ${kind}`);
    })
    .openapi(approve, async (c) =>
      ok(c, toProviderDto(await approveProvider(marketplace, actorOf(c), c.req.valid("param").id))),
    );
};
