import { marketplaceOperations } from "@agora/contracts/marketplace";
import { listCategories } from "@agora/domain/marketplace/list-categories";
import { listServices } from "@agora/domain/marketplace/list-services";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";

export const catalogRoutes = ({ marketplace }: { marketplace: MarketplaceDeps }): Handled[] => [
  handle(marketplaceOperations.catalogServicesList, async (c) => ok(c, await listServices(marketplace))),
  handle(marketplaceOperations.catalogCategoriesList, async (c) => {
    const list = await listCategories(marketplace);

    return ok(
      c,
      list.map((category) => ({ id: category.id, service_id: category.serviceId, name: category.name })),
    );
  }),
];
