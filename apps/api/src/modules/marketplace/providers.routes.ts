import { successEnvelope } from "@agora/contracts/envelope";
import {
  createProviderRequestSchema,
  dashboardSchema,
  manualSaleRequestSchema,
  manualSaleSchema,
  providerSchema,
  updateProviderRequestSchema,
} from "@agora/contracts/marketplace";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { createProvider } from "@agora/domain/marketplace/create-provider";
import { getProviderDashboard } from "@agora/domain/marketplace/get-provider-dashboard";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { recordManualSale } from "@agora/domain/marketplace/record-manual-sale";
import { updateOwnProvider } from "@agora/domain/marketplace/update-own-provider";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toDashboardDto, toManualSaleDto, toProviderDto } from "./marketplace.presenter";

const tags = ["Providers"];
const secured = [{ bearerAuth: [] }];

export const createProviderRoutes = ({
  identity,
  marketplace,
}: {
  identity: IdentityDeps;
  marketplace: MarketplaceDeps;
}) => {
  const auth = requireAuth(identity);
  const providerOnly = [auth, requireRoles("provider")];

  const create = createRoute({
    method: "post",
    path: "/",
    tags,
    summary: "Create the caller's provider profile",
    description:
      "The owner is the caller (never the body). Starts `pending` approval and `offline`. One profile per user: " +
      "a second is 422.",
    security: secured,
    middleware: [auth],
    request: body(createProviderRequestSchema),
    responses: {
      201: json(successEnvelope(providerSchema), "Created, pending approval."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const update = createRoute({
    method: "patch",
    path: "/me",
    tags,
    summary: "Change the caller's provider profile",
    description: "A new display name also changes what listing search matches.",
    security: secured,
    middleware: [auth],
    request: body(updateProviderRequestSchema),
    responses: {
      200: json(successEnvelope(providerSchema), "Updated."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  const dashboard = createRoute({
    method: "get",
    path: "/me/dashboard",
    tags,
    summary: "The owner's dashboard",
    description:
      "Aggregates over the caller's own rows: listings by status, orders by status, revenue of the last 30 days " +
      "(primary sales of completed orders and manual sales, per currency) and payments awaiting review. " +
      "Providers only (403).",
    security: secured,
    middleware: providerOnly,
    responses: {
      200: json(successEnvelope(dashboardSchema), "The dashboard."),
      ...errors("unauthorized", "forbidden"),
    },
  });

  const sale = createRoute({
    method: "post",
    path: "/me/sales",
    tags,
    summary: "Record a manual sale",
    description: "Money taken outside the app; it counts in the dashboard's revenue. Providers only (403).",
    security: secured,
    middleware: providerOnly,
    request: body(manualSaleRequestSchema),
    responses: {
      201: json(successEnvelope(manualSaleSchema), "Recorded."),
      ...errors("unauthorized", "forbidden", "validation_failed"),
    },
  });

  return createRouter()
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const provider = await createProvider(marketplace, actorOf(c), {
        displayName: input.display_name,
        bio: input.bio,
        phone: input.phone,
      });

      return ok(c, toProviderDto(provider), { status: 201 });
    })
    .openapi(update, async (c) => {
      const input = c.req.valid("json");
      const provider = await updateOwnProvider(marketplace, actorOf(c), {
        displayName: input.display_name,
        bio: input.bio,
        phone: input.phone,
      });

      return ok(c, toProviderDto(provider));
    })
    .openapi(dashboard, async (c) =>
      ok(c, toDashboardDto(await getProviderDashboard(marketplace, actorOf(c)))),
    )
    .openapi(sale, async (c) => {
      const input = c.req.valid("json");
      const recorded = await recordManualSale(marketplace, actorOf(c), {
        amount: input.amount,
        currency: input.currency,
        occurredAt: input.occurred_at === undefined ? undefined : new Date(input.occurred_at),
        description: input.description,
        customerLabel: input.customer_label,
      });

      return ok(c, toManualSaleDto(recorded), { status: 201 });
    });
};
