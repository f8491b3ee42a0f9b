import { type CompiledFilters, compileFilters } from "./content-filter";
import type { ContentFilterSource } from "./content-filter.ports";

/** The rule set a check uses, compiled once per change and per process. */
export interface ContentScreen {
  /** The compiled rules: cached, and checked against the database at most once per `refreshMs`. */
  current(): Promise<CompiledFilters>;
  /** Forgets the cache: the next check reloads (called after this process changes a rule). */
  invalidate(): void;
  countHits(ruleIds: readonly string[], at: Date): Promise<void>;
}

/**
 * A per-process cache of the compiled rules. A check reuses them while they are younger than
 * `refreshMs` (default 1 s); an older cache asks the database for the rules' fingerprint (one
 * small query) and reloads and recompiles only when it changed. So a change made by another API
 * process applies within about a second; this process's own changes at once (`invalidate`).
 * Concurrent checks share one refresh.
 */
export const createContentFilterCache = (
  source: ContentFilterSource,
  options: { refreshMs?: number; now?: () => number } = {},
): ContentScreen => {
  const refreshMs = options.refreshMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  let compiled: CompiledFilters | null = null;
  let fingerprint: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let generation = 0;
  let refreshing: Promise<CompiledFilters> | null = null;
  let refreshingFor = -1;

  const refresh = async (): Promise<CompiledFilters> => {
    const started = generation;
    const seen = await source.fingerprint();
    let next = compiled;
    if (next === null || seen !== fingerprint) {
      next = compileFilters(await source.loadAll());
    }
    compiled = next;
    fingerprint = seen;
    // A change this process made while the refresh ran may not be in it: check again next time.
    if (started === generation) {
      checkedAt = now();
    }

    return next;
  };

  return {
    current() {
      if (compiled !== null && now() - checkedAt < refreshMs) {
        return Promise.resolve(compiled);
      }
      // A refresh that began before this process's last change may miss it: start another.
      if (refreshing === null || refreshingFor !== generation) {
        refreshingFor = generation;
        const mine: Promise<CompiledFilters> = refresh().finally(() => {
          if (refreshing === mine) {
            refreshing = null;
          }
        });
        refreshing = mine;
      }

      return refreshing;
    },
    invalidate() {
      generation += 1;
      checkedAt = Number.NEGATIVE_INFINITY;
      fingerprint = null;
    },
    countHits: (ruleIds, at) => source.countHits(ruleIds, at),
  };
};
