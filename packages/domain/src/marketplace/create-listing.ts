import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { Listing } from "./marketplace.types";
import { findOwnProvider, requireActiveCategory } from "./ownership";

/**
 * Creates a draft listing for the caller's own provider profile. The body's provider_id must be
 * that profile: anything else is 404, exactly as for a caller without a profile.
 */
export const createListing = async (
  { uow, clock, ids }: Pick<MarketplaceDeps, "uow" | "clock" | "ids">,
  actor: Actor,
  input: { providerId: string; categoryId: string; name: string; description?: string | undefined },
): Promise<Listing> =>
  uow.run(async (tx) => {
    const own = await findOwnProvider(tx, actor);
    if (!own || own.id !== input.providerId) {
      throw new NotFoundError("Provider profile");
    }
    await requireActiveCategory(tx, input.categoryId);
    const id = ids.next();
    const now = clock.now();
    await tx.listings.create(
      {
        id,
        providerId: own.id,
        categoryId: input.categoryId,
        name: input.name,
        description: input.description ?? "",
      },
      now,
    );
    const created = await tx.listings.findById(id, now);
    if (!created) {
      throw new NotFoundError("Listing");
    }

    return created;
  });
