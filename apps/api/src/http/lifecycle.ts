/**
 * Whether the process is on its way out. SIGTERM sets it first, before anything stops: from then on
 * `/ready` answers 503 (a balancer polling it moves traffic away) and every response carries
 * `Connection: close` (keep-alive connections end after their current request, so the listener
 * closes with nothing idle for a balancer to reuse), while requests are still served.
 */
export type Lifecycle = {
  readonly draining: boolean;
  /** Marks the process as draining; there is no way back. */
  drain(): void;
};

export const createLifecycle = (): Lifecycle => {
  let draining = false;

  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
};
