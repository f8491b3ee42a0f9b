import type { Page } from "@agora/domain/common/page";
import type { ListingRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { PublicListing } from "@agora/domain/marketplace/marketplace.types";
import { createBatchedRead, type ListingPageCache } from "../../listing-cache";
import { createSingleFlight } from "../../single-flight";
import type { PlainListingRepository, StampedListingPage } from "./listings.repository";

export type ListingRepositoryOptions = {
  /**
   * Identical public searches that arrive while one runs share the next query (default; see
   * createSingleFlight). False only to benchmark the queries themselves (LISTINGS_COALESCE=off).
   */
  coalesce?: boolean;
  /**
   * Public pages kept and served again while the catalog stamp and time leave them the answer
   * (listing-cache.ts); none without it.
   */
  cache?: ListingPageCache<Page<PublicListing>> | undefined;
};

/** Whether a page read at `read.stamp` is the answer for a request that read `stamp` at `now`. */
const stillTheAnswer = (read: StampedListingPage, stamp: string, now: Date) =>
  read.stamp === stamp &&
  read.readAt.getTime() <= now.getTime() &&
  (read.validUntil === null || now.getTime() < read.validUntil.getTime());

/**
 * The listing repository with its public search shared and kept: performance only, every answer
 * the one the plain repository would give a request at the same moment. Every other call goes to
 * `listings` as it is. With neither sharing nor a cache, `listings` itself.
 */
export const withListingSearchSharing = (
  listings: PlainListingRepository,
  options: ListingRepositoryOptions = {},
): ListingRepository => {
  // Identical searches arriving while one runs share the next one, which starts when it ends: none
  // is answered by a query that began before it arrived (public, anonymous, read-heavy), unless
  // the catalog stamp shows that query's answer is still the answer (below).
  const coalesce = options.coalesce === false ? undefined : createSingleFlight<StampedListingPage>();
  const cache = options.cache;
  if (coalesce === undefined && cache === undefined) {
    return listings;
  }
  // Per request, but one read at a time for all of them (each still one that began after it asked).
  const readStamp = createBatchedRead(() => listings.readCatalogStamp());

  return {
    ...listings,

    async search(search, now) {
      const prepared = listings.prepareSearch(search, now);
      // The statement and its values but `now` (the cache checks time against the page's span).
      const key = prepared.key;
      // Same statement and values, to the second: the visibility check uses `now`.
      const flightKey = `${key}|${Math.floor(now.getTime() / 1000)}`;
      if (cache) {
        const stamp = await readStamp();
        const cached = stamp === undefined ? undefined : cache.get(key, stamp, now);
        if (cached) {
          return cached;
        }
        // The same query already running began before this request came; its answer is this
        // request's too when its statement read the stamp this request read since: no change to the
        // catalog committed in between (as for a cached page).
        const running = stamp === undefined ? undefined : coalesce?.running(flightKey);
        const shared = await running?.catch(() => undefined);
        if (shared !== undefined && stamp !== undefined && stillTheAnswer(shared, stamp, now)) {
          return shared.page;
        }
      }
      const read = await (coalesce ? coalesce(flightKey, () => prepared.read()) : prepared.read());
      // Kept with the stamp and `now` of the statement that read it (requests sharing a query share
      // the `now` of the first of them, within the same second).
      if (cache && read.stamp !== undefined) {
        cache.set(key, read.page, read.stamp, read.readAt, read.validUntil);
      }

      return read.page;
    },
  };
};
