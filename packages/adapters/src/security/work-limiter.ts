/** Thrown by a WorkLimiter when every slot is busy and its queue is full. */
export class WorkLimiterFullError extends Error {
  constructor() {
    super("work limiter saturated");
    this.name = "WorkLimiterFullError";
  }
}

export type WorkLimiter = {
  /** Runs `task` when a slot is free; rejects with WorkLimiterFullError when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now, tasks waiting, and the most that ever ran at once. */
  stats(): { active: number; queued: number; peak: number };
};

/**
 * A counting semaphore with a bounded FIFO queue: at most `concurrency` tasks run at once, at most
 * `queue` wait, and anything beyond is refused at once (cheaply) instead of piling up.
 */
export const createWorkLimiter = ({
  concurrency,
  queue,
}: {
  concurrency: number;
  queue: number;
}): WorkLimiter => {
  let active = 0;
  let peak = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) {
      // The slot passes straight to the next waiter: `active` stays the same.
      next();

      return;
    }
    active -= 1;
  };

  return {
    async run(task) {
      if (active < concurrency) {
        active += 1;
      } else if (waiting.length < queue) {
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        throw new WorkLimiterFullError();
      }
      peak = Math.max(peak, active);
      try {
        return await task();
      } finally {
        release();
      }
    },
    stats: () => ({ active, queued: waiting.length, peak }),
  };
};
