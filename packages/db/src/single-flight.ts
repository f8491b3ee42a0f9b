/**
 * Request coalescing: while a call for `key` is in flight, further calls for the same key share
 * its promise instead of starting their own. Nothing outlives the call (no cache, no staleness
 * beyond the query that is already running); it only keeps a burst of identical reads from
 * becoming a burst of identical queries.
 */
export const createSingleFlight = <T>() => {
  const inflight = new Map<string, Promise<T>>();

  return (key: string, work: () => Promise<T>): Promise<T> => {
    const running = inflight.get(key);
    if (running) {
      return running;
    }
    const started = work().finally(() => inflight.delete(key));
    inflight.set(key, started);

    return started;
  };
};
