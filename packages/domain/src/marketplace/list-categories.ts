import type { MarketplaceDeps } from "./marketplace.deps";

/** Active categories of active services: the ones a listing may use. */
export const listCategories = ({ repos }: Pick<MarketplaceDeps, "repos">) => repos.catalog.listCategories();
