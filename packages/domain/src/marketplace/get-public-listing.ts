import { type RecordMedia, recordMedia } from "../media/record-media";
import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { PublicListing } from "./marketplace.types";

/** A publicly visible listing with its active menu items and its gallery; anything else is 404. */
export const getPublicListing = async (
  { repos, clock, objects }: Pick<MarketplaceDeps, "repos" | "clock" | "objects">,
  listingId: string,
): Promise<{ listing: PublicListing; media: RecordMedia[] }> => {
  const now = clock.now();
  const listing = await repos.listings.findPublic(listingId, now);
  if (!listing) {
    throw new NotFoundError("Listing");
  }

  return { listing, media: await recordMedia(objects, await repos.media.findOnListing(listing.id), now) };
};
