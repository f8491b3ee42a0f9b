import type { Actor } from "../common/actor";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ManualSale } from "./marketplace.types";
import { requireOwnProviderRole } from "./ownership";

/** Records a manual sale (money taken outside the app) for the caller's provider profile. */
export const recordManualSale = async (
  { repos, clock, ids }: Pick<MarketplaceDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: {
    amount: number;
    currency: string;
    occurredAt?: Date | undefined;
    description: string;
    customerLabel?: string | undefined;
  },
): Promise<ManualSale> => {
  const provider = await requireOwnProviderRole(repos, actor);
  const now = clock.now();
  const sale: ManualSale = {
    id: ids.next(),
    providerId: provider.id,
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    customerLabel: input.customerLabel ?? null,
    occurredAt: input.occurredAt ?? now,
    createdAt: now,
  };
  await repos.sales.create({ ...sale, source: "manual", orderId: null });

  return sale;
};
