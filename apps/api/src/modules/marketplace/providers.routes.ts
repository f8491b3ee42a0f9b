import { marketplaceOperations } from "@agora/contracts/marketplace";
import { createProvider } from "@agora/domain/marketplace/create-provider";
import { getProviderDashboard } from "@agora/domain/marketplace/get-provider-dashboard";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import { recordManualSale } from "@agora/domain/marketplace/record-manual-sale";
import { updateOwnProvider } from "@agora/domain/marketplace/update-own-provider";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toMediaItemDto } from "../media/media.presenter";
import { toDashboardDto, toManualSaleDto, toProviderDto } from "./marketplace.presenter";

const providersOnly = { roles: ["provider"] } as const;

export const providerRoutes = ({ marketplace }: { marketplace: MarketplaceDeps }): Handled[] => [
  handle(marketplaceOperations.providersCreate, async (c) => {
    const input = c.req.valid("json");
    const { profile, media } = await createProvider(marketplace, actorOf(c), {
      displayName: input.display_name,
      bio: input.bio,
      phone: input.phone,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toProviderDto(profile), media: media.map(toMediaItemDto) }, { status: 201 });
  }),
  handle(marketplaceOperations.providersMeUpdate, async (c) => {
    const input = c.req.valid("json");
    const { profile, media } = await updateOwnProvider(marketplace, actorOf(c), {
      displayName: input.display_name,
      bio: input.bio,
      phone: input.phone,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, { ...toProviderDto(profile), media: media.map(toMediaItemDto) });
  }),
  handle(
    marketplaceOperations.providersMeDashboard,
    async (c) => ok(c, toDashboardDto(await getProviderDashboard(marketplace, actorOf(c)))),
    providersOnly,
  ),
  handle(
    marketplaceOperations.providersMeSalesCreate,
    async (c) => {
      const input = c.req.valid("json");
      const recorded = await recordManualSale(marketplace, actorOf(c), {
        amount: input.amount,
        currency: input.currency,
        occurredAt: input.occurred_at === undefined ? undefined : new Date(input.occurred_at),
        description: input.description,
        customerLabel: input.customer_label,
      });

      return ok(c, toManualSaleDto(recorded), { status: 201 });
    },
    providersOnly,
  ),
];
