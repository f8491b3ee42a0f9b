import { successEnvelope } from "@agora/contracts/envelope";
import { categorySchema, serviceSchema } from "@agora/contracts/marketplace";
import { listCategories } from "@agora/domain/marketplace/list-categories";
import { listServices } from "@agora/domain/marketplace/list-services";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, json } from "../../http/openapi";
import { ok } from "../../http/respond";

const tags = ["Catalog"];

export const createCatalogRoutes = ({ marketplace }: { marketplace: MarketplaceDeps }) => {
  const services = createRoute({
    method: "get",
    path: "/services",
    tags,
    summary: "Active platform services",
    responses: { 200: json(successEnvelope(z.array(serviceSchema)), "Services, in catalog order.") },
  });
  const categories = createRoute({
    method: "get",
    path: "/categories",
    tags,
    summary: "Active categories usable for listing creation",
    responses: { 200: json(successEnvelope(z.array(categorySchema)), "Categories of active services.") },
  });

  return createRouter()
    .openapi(services, async (c) => ok(c, await listServices(marketplace)))
    .openapi(categories, async (c) => {
      const list = await listCategories(marketplace);

      return ok(
        c,
        list.map((category) => ({ id: category.id, service_id: category.serviceId, name: category.name })),
      );
    });
};
