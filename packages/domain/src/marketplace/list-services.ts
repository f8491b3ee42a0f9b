import type { MarketplaceDeps } from "./marketplace.deps";

/** Active platform services. */
export const listServices = ({ repos }: Pick<MarketplaceDeps, "repos">) => repos.catalog.listServices();
