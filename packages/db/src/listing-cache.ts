import { createBoundedMap } from "@agora/domain/common/bounded-map";
import { createSingleFlight } from "./single-flight";

/**
 * Recent public listing pages (browse and search) of this process, each kept with what makes it
 * the answer: the catalog stamp its statement read (catalog_stamp: moved on at the commit of every
 * change to listings, menu items, provider profiles and categories) and the span of time over which
 * time alone does not change it (from the statement's `now` until the first expiry or featured end
 * it depends on). A page is served again only to a request that read the same stamp at a `now`
 * inside that span: the same answer the statement would give, so a cached page is never stale, and
 * a request made after a change committed never sees the catalog from before it.
 *
 * Popular searches and the first pages of popular categories repeat; this is what makes them cheap.
 * Entries are shared between requests and must not be mutated.
 */
export type ListingPageCache<T> = {
  /** The page cached under `key` if it was read at `stamp` and is still the answer at `now`. */
  get(key: string, stamp: string, now: Date): T | undefined;
  /** Keeps `value`, read at `stamp` and `readAt`, as the answer until `validUntil` (null: no end). */
  set(key: string, value: T, stamp: string, readAt: Date, validUntil: Date | null): void;
  /** Lookups served (`hits`) and not (`misses`) since the process started, and pages held now. */
  figures(): ListingPageCacheFigures;
};

export type ListingPageCacheFigures = { hits: number; misses: number; pages: number };

type Entry<T> = { value: T; stamp: string; from: number; until: number };

/** At most `capacity` pages; past that the page served or stored longest ago is dropped. */
export const createListingPageCache = <T>(capacity: number): ListingPageCache<T> => {
  const entries = createBoundedMap<string, Entry<T>>(capacity);
  let hits = 0;
  let misses = 0;

  return {
    get(key, stamp, now) {
      const entry = entries.get(key);
      const at = now.getTime();
      if (entry === undefined || entry.stamp !== stamp || at < entry.from || at >= entry.until) {
        misses += 1;

        return undefined;
      }
      hits += 1;
      // Served again: the newest, so the pages asked for most stay (least recently used goes first).
      entries.set(key, entry);

      return entry.value;
    },
    set(key, value, stamp, readAt, validUntil) {
      entries.set(key, {
        value,
        stamp,
        from: readAt.getTime(),
        until: validUntil === null ? Number.POSITIVE_INFINITY : validUntil.getTime(),
      });
    },
    figures: () => ({ hits, misses, pages: entries.size() }),
  };
};

/**
 * `read` shared by callers without serving any of them an older answer than a read of its own:
 * a caller gets the result of a read that started after it asked. While one read runs, every caller
 * that arrives waits for the one read that starts when it ends (createSingleFlight on one key). A
 * hot key read per request (the catalog stamp) thus takes at most one pool connection at a time,
 * however many requests ask.
 */
export const createBatchedRead = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  const flight = createSingleFlight<T>();

  return () => flight("", read);
};
