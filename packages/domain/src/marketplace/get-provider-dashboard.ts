import type { Actor } from "../common/actor";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderDashboard } from "./marketplace.types";
import { requireOwnProviderRole } from "./ownership";

/** The owner's dashboard: listings and orders by status, 30-day revenue, payments awaiting review. */
export const getProviderDashboard = async (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  actor: Actor,
): Promise<ProviderDashboard> =>
  repos.dashboard.forProvider(await requireOwnProviderRole(repos, actor), clock.now());
