/**
 * Loads something once, on the first call, and hands the same promise to every caller. A failed
 * load is forgotten, so the next call tries again. The adapters of optional peers (mail providers,
 * the object store, push, video) load their SDKs through this with a dynamic `import()`: a process
 * that never sends a mail or a push never loads those modules (each is megabytes of resident memory),
 * and the API bundle keeps them in chunks of their own that only that `import()` loads.
 */
export const loadOnce = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loading: Promise<T> | undefined;

  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });

    return loading;
  };
};
