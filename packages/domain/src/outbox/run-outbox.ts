import { setTimeout as sleep } from "node:timers/promises";
import { describeFailure, retryDelayMs } from "./backoff";
import { MAX_DELIVERY_ATTEMPTS, type OutboxDeps } from "./outbox.deps";
import { PermanentDeliveryError } from "./outbox.errors";
import type { OutboxKindFilter, OutboxWakeup } from "./outbox.ports";
import type { OutboxEvent } from "./outbox.types";

export type OutboxBatchOptions = {
  /** Events claimed per round trip. */
  batchSize?: number;
  /** How long a claim holds its events before another worker may take them. */
  leaseSeconds?: number;
  /**
   * Events of one batch delivered at the same time; default: the whole batch, so the inbox rows of
   * its deliveries can be written together (see the worker's notification repository).
   */
  concurrency?: number;
};

export type OutboxLoopOptions = OutboxBatchOptions & {
  signal: AbortSignal;
  /** Wait between polls while the outbox has nothing due; a full batch re-polls at once. */
  pollIntervalMs?: number;
  /** How idle waits end early when events are written (LISTEN/NOTIFY); polling stays the fallback. */
  wakeup?: OutboxWakeup | undefined;
  /** Claim loops run side by side (batches in flight at once); default 1. */
  loops?: number;
  /**
   * Kinds whose delivery is long work (`EventKind.slowDelivery`: processing an upload). With any,
   * one more loop claims only those, `slowBatchSize` at a time (default 1), and the `loops` loops
   * claim every other kind: a batch is recorded once all of its events are delivered, so one
   * upload in a batch would hold the others' recording (and the loop's next claim) for as long as
   * it takes.
   */
  slowKinds?: readonly string[];
  slowBatchSize?: number;
};

/** How many claim loops `runOutbox` runs with these options (the worker's liveness watches each). */
export const outboxLoopCount = (options: Pick<OutboxLoopOptions, "loops" | "slowKinds">): number =>
  Math.max(1, options.loops ?? 1) + ((options.slowKinds?.length ?? 0) > 0 ? 1 : 0);

/**
 * Defaults: a batch of 200 is delivered with its inbox rows in one statement (the drain benchmark,
 * `pnpm bench`, measures batch sizes); an idle loop polls every 200 ms unless a wake-up ends its
 * wait sooner, and a full batch is followed by the next claim at once.
 */
export const OUTBOX_DEFAULTS = {
  batchSize: 200,
  leaseSeconds: 60,
  pollIntervalMs: 200,
} as const;

/** After the loop's own failure (claim failed: database down), it waits this long before polling again. */
const CLAIM_FAILURE_PAUSE_MS = 2_000;

export type OutboxBatchResult = { claimed: number; processed: number; retried: number; dead: number };

type Outcome = "processed" | "retried" | "dead" | "unrecorded";

const settle = async ({ outbox, clock, random, observe }: OutboxDeps, event: OutboxEvent, error: unknown) => {
  const attempts = event.attempts + 1;
  const description = describeFailure(error);
  const now = clock.now();
  if (attempts >= MAX_DELIVERY_ATTEMPTS || error instanceof PermanentDeliveryError) {
    await outbox.markDead(event.id, {
      previousAttempts: event.attempts,
      attempts,
      error: description,
      at: now,
    });
    observe?.({ type: "dead", event, attempts, error: description });

    return "dead" as const;
  }
  const retryAt = new Date(now.getTime() + retryDelayMs(attempts, random));
  await outbox.recordFailure(event.id, {
    previousAttempts: event.attempts,
    attempts,
    error: description,
    retryAt,
  });
  observe?.({ type: "retry", event, attempts, retryAt, error: description });

  return "retried" as const;
};

/** Delivers one event; a failure is recorded at once, a success is left for the batch to mark. */
const handle = async (deps: OutboxDeps, event: OutboxEvent): Promise<Outcome | "delivered"> => {
  let failure: { error: unknown } | undefined;
  try {
    await deps.deliver(event);
  } catch (error) {
    failure = { error };
  }
  if (!failure) {
    return "delivered";
  }
  try {
    return await settle(deps, event, failure.error);
  } catch (error) {
    // The outcome could not be stored: the lease runs out and the event is delivered again.
    deps.observe?.({ type: "record_failed", event, error: describeFailure(error) });

    return "unrecorded";
  }
};

/** Marks the delivered events of a batch processed in one statement. */
const markDelivered = async (deps: OutboxDeps, delivered: OutboxEvent[]): Promise<Outcome[]> => {
  if (delivered.length === 0) {
    return [];
  }
  try {
    await deps.outbox.markProcessed(
      delivered.map((event) => event.id),
      deps.clock.now(),
    );
    for (const event of delivered) {
      deps.observe?.({ type: "processed", event });
    }

    return delivered.map(() => "processed" as const);
  } catch (error) {
    for (const event of delivered) {
      deps.observe?.({ type: "record_failed", event, error: describeFailure(error) });
    }

    return delivered.map(() => "unrecorded" as const);
  }
};

/** Runs `work` over `items` with at most `limit` running at once. */
const eachLimited = async <T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));

  return results;
};

/** Delivers a claimed batch (failures recorded as they happen); resolves the delivered events and the rest's outcomes. */
const deliverBatch = async (deps: OutboxDeps, events: OutboxEvent[], concurrency: number) => {
  const handled = await eachLimited(events, concurrency, (event) => handle(deps, event));

  return {
    delivered: events.filter((_, index) => handled[index] === "delivered"),
    outcomes: handled.filter((outcome): outcome is Outcome => outcome !== "delivered"),
  };
};

const leaseEnd = (now: Date, options: OutboxBatchOptions) =>
  new Date(now.getTime() + (options.leaseSeconds ?? OUTBOX_DEFAULTS.leaseSeconds) * 1000);

const tally = (claimed: number, outcomes: Outcome[]): OutboxBatchResult => ({
  claimed,
  processed: outcomes.filter((outcome) => outcome === "processed").length,
  retried: outcomes.filter((outcome) => outcome === "retried").length,
  dead: outcomes.filter((outcome) => outcome === "dead").length,
});

/**
 * Claims one batch of due events and delivers each: processed on success; on failure the attempt is
 * counted and the event backs off (`retryDelayMs`), and the tenth failure (or a malformed payload)
 * dead-letters it. Throws only when the claim itself fails.
 */
export const runOutboxOnce = async (
  deps: OutboxDeps,
  options: OutboxBatchOptions = {},
): Promise<OutboxBatchResult> => {
  const batchSize = options.batchSize ?? OUTBOX_DEFAULTS.batchSize;
  const now = deps.clock.now();
  const events = await deps.outbox.claim(now, leaseEnd(now, options), batchSize);
  const { delivered, outcomes } = await deliverBatch(deps, events, options.concurrency ?? batchSize);

  return tally(events.length, [...outcomes, ...(await markDelivered(deps, delivered))]);
};

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  sleep(ms, undefined, { signal }).catch(() => undefined);

/** One claim loop of `runOutbox` (number `loop`, from 0), claiming the kinds `kinds` lets through. */
const runLoop = async (
  deps: OutboxDeps,
  options: OutboxLoopOptions & { kinds?: OutboxKindFilter | undefined },
  loop: number,
): Promise<void> => {
  const { signal, wakeup } = options;
  const batchSize = options.batchSize ?? OUTBOX_DEFAULTS.batchSize;
  const pollIntervalMs = options.pollIntervalMs ?? OUTBOX_DEFAULTS.pollIntervalMs;
  const concurrency = options.concurrency ?? batchSize;
  const idle = (ms: number) => (wakeup ? wakeup.wait(ms, signal) : pause(ms, signal));
  // Delivered events of the last full batch, marked processed by the next claim.
  let unmarked: OutboxEvent[] = [];
  while (!signal.aborted) {
    let events: OutboxEvent[];
    const now = deps.clock.now();
    try {
      events = await deps.outbox.claim(
        now,
        leaseEnd(now, options),
        batchSize,
        unmarked.length > 0 ? { ids: unmarked.map((event) => event.id), at: now } : undefined,
        options.kinds,
      );
      deps.observe?.({
        type: "claimed",
        loop,
        events: events.length,
        seconds: Math.max(0, deps.clock.now().getTime() - now.getTime()) / 1000,
      });
      for (const event of unmarked) {
        deps.observe?.({ type: "processed", event });
      }
    } catch (error) {
      const description = describeFailure(error);
      for (const event of unmarked) {
        deps.observe?.({ type: "record_failed", event, error: description });
      }
      unmarked = [];
      deps.observe?.({ type: "claim_failed", loop, error: description });
      await pause(Math.max(CLAIM_FAILURE_PAUSE_MS, pollIntervalMs), signal);
      continue;
    }
    unmarked = [];
    const { delivered } = await deliverBatch(deps, events, concurrency);
    if (events.length === batchSize && !signal.aborted) {
      unmarked = delivered;
    } else {
      await markDelivered(deps, delivered);
      if (events.length < batchSize) {
        await idle(pollIntervalMs);
      }
    }
  }
  // Aborted between a full batch and the next claim: its events are marked on the way out.
  await markDelivered(deps, unmarked);
};

/**
 * The outbox worker loop: claim → deliver → record, until `signal` aborts. An abort lets the batch
 * in flight finish and be recorded, then the promise resolves (it never rejects). Several loops, in
 * one process or many, may run over the same database: claims skip rows another worker holds.
 *
 * While the backlog keeps batches full, marking a batch processed and claiming the next are one
 * statement (a round trip saved per batch); a batch that was not full is marked at once, and the
 * loop then waits for `pollIntervalMs`, or less when `wakeup` reports new events. `loops` claim
 * loops run side by side, and one more for `slowKinds` when there are any.
 */
export const runOutbox = async (deps: OutboxDeps, options: OutboxLoopOptions): Promise<void> => {
  const slow = options.slowKinds ?? [];
  const loops: Array<OutboxLoopOptions & { kinds?: OutboxKindFilter }> = Array.from(
    { length: Math.max(1, options.loops ?? 1) },
    () => (slow.length > 0 ? { ...options, kinds: { except: slow } } : options),
  );
  if (slow.length > 0) {
    loops.push({ ...options, kinds: { only: slow }, batchSize: Math.max(1, options.slowBatchSize ?? 1) });
  }
  await Promise.all(loops.map((loopOptions, loop) => runLoop(deps, loopOptions, loop)));
};
