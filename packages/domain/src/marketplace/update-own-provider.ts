import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderProfile } from "./marketplace.types";
import { findOwnProvider } from "./ownership";

/**
 * Changes the caller's own profile (404 without one), in one transaction; a new display name is
 * carried into the search text of the provider's listings (search matches the provider's name).
 */
export const updateOwnProvider = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  changes: { displayName?: string | undefined; bio?: string | undefined; phone?: string | null | undefined },
): Promise<ProviderProfile> =>
  uow.run(async (tx) => {
    const own = await findOwnProvider(tx, actor);
    const updated = own ? await tx.providers.update(own.id, changes, clock.now()) : null;
    if (!updated) {
      throw new NotFoundError("Provider profile");
    }
    if (changes.displayName !== undefined) {
      await tx.listings.setProviderName(updated.id, changes.displayName);
    }

    return updated;
  });
