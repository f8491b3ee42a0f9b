import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderProfile } from "./marketplace.types";
import { findOwnProvider } from "./ownership";

/**
 * Changes the caller's own profile (404 without one), in one transaction; a new display name is
 * carried into the search text of the provider's listings (search matches the provider's name).
 * `mediaAssetIds`, when given, replaces the logo (`[]` removes it; the old one is left to the
 * orphan purge).
 */
export const updateOwnProvider = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "objects">,
  actor: Actor,
  changes: {
    displayName?: string | undefined;
    bio?: string | undefined;
    phone?: string | null | undefined;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ profile: ProviderProfile; media: RecordMedia[] }> => {
  const { uow, clock } = deps;
  let change: Awaited<ReturnType<typeof prepareMediaChange>>;
  if (changes.mediaAssetIds !== undefined) {
    // The profile is found again in the transaction; the logo's checks need the store, outside it.
    const own = await findOwnProvider(deps.repos, actor);
    if (!own) {
      throw new NotFoundError("Provider profile");
    }
    change = await prepareMediaChange(
      deps,
      actor,
      { kind: "provider", id: own.id, purpose: "provider_logo" },
      changes.mediaAssetIds,
    );
  }
  const { profile, assets } = await uow.run(async (tx) => {
    const own = await findOwnProvider(tx, actor);
    const now = clock.now();
    const updated = own
      ? await tx.providers.update(
          own.id,
          { displayName: changes.displayName, bio: changes.bio, phone: changes.phone },
          now,
        )
      : null;
    if (!updated) {
      throw new NotFoundError("Provider profile");
    }
    if (changes.displayName !== undefined) {
      await tx.listings.setProviderName(updated.id, changes.displayName);
    }
    const record = { kind: "provider", id: updated.id, purpose: "provider_logo" } as const;

    return { profile: updated, assets: await applyMediaChange(tx, actor, record, change, now) };
  });

  return { profile, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
