import type { MarketplaceDeps } from "./marketplace.deps";

/** Active platform services. */
export const listServices = ({ repos }: Pick<MarketplaceDeps, "repos">) => repos.catalog.listServices();

/** Active categories of active services: the ones a listing may use. */
export const listCategories = ({ repos }: Pick<MarketplaceDeps, "repos">) => repos.catalog.listCategories();
