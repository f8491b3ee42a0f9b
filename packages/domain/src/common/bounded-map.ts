/**
 * A Map that keeps at most `capacity` entries: setting a key past that drops the entry set longest
 * ago (setting a key again makes it the newest). For per-process memos on hot paths, whose entries
 * are only ever a shortcut, never the truth.
 */
export type BoundedMap<K, V> = {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  /** Entries held now. */
  size(): number;
};

export const createBoundedMap = <K, V>(capacity: number): BoundedMap<K, V> => {
  const entries = new Map<K, V>();

  return {
    get: (key) => entries.get(key),
    set(key, value) {
      entries.delete(key);
      if (entries.size >= capacity) {
        // A Map iterates in insertion order: the first key is the one set longest ago.
        const oldest = entries.keys().next();
        if (!oldest.done) {
          entries.delete(oldest.value);
        }
      }
      entries.set(key, value);
    },
    delete(key) {
      entries.delete(key);
    },
    size: () => entries.size,
  };
};
