import { createMemoryPush, type MemoryPush } from "@agora/adapters/push/memory-push";
import { OUTBOX_WAITING_LOCK, openOutboxWakeup } from "@agora/db/outbox-wakeup";
import { createOutboxRepositories, createUnitOfWork } from "@agora/db/repositories/index";
import { onPostgres, openTestPool } from "@agora/db/test/databases";
import { systemClock } from "@agora/domain/common/clock";
import {
  type NotificationRequest,
  type NotifyDeps,
  notificationId,
  notify,
} from "@agora/domain/notifications/notify";
import { OUTBOX_BACKOFF } from "@agora/domain/outbox/backoff";
import { createEventRegistry, defineEventKind, type EventKind } from "@agora/domain/outbox/event-kind";
import type { OutboxDeps, OutboxOutcome } from "@agora/domain/outbox/outbox.deps";
import { retryDeadEvents } from "@agora/domain/outbox/retry-dead-events";
import { runOutbox, runOutboxOnce } from "@agora/domain/outbox/run-outbox";
import { createOutboxWorker, type DeliveryDeps } from "@agora/outbox-worker/outbox-worker";
import { eventually, sleep } from "@agora/testing/eventually";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHarness, type Harness } from "../../../test/harness";

/**
 * A throwaway event kind, registered only here: the registry's mechanism (parse, deliver, retry,
 * dead-letter) is what is under test, not any one product event. Its payload names recipients
 * and wording directly.
 */
const testHappened = defineEventKind({
  kind: "test.happened",
  aggregateType: "test",
  payload: z.object({
    notes: z
      .array(
        z.object({
          userId: z.string(),
          title: z.string(),
          body: z.string(),
          data: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .default([]),
  }),
  deliver: (deps: NotifyDeps, event) =>
    notify(
      deps,
      event,
      event.payload.notes.map((note) => ({ ...note, kind: event.kind })),
    ),
});

const registry = createEventRegistry([testHappened]);

/** A gate a test opens: `wait` resolves once `open` was called. */
const gate = () => {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });

  return { wait, open };
};

/** A kind whose delivery is long work (as processing an upload is): each waits for `slowGate`. */
let slowGate = gate();
const slowStarted: string[] = [];
const testSlow = defineEventKind({
  kind: "test.slow",
  aggregateType: "test",
  payload: z.object({}),
  slowDelivery: true,
  deliver: async (_deps: NotifyDeps, event) => {
    slowStarted.push(event.id);
    await slowGate.wait;
  },
});

type EventRow = {
  attempts: number;
  available_at: Date;
  processed_at: Date | null;
  dead_at: Date | null;
  last_error: string | null;
};

/** The harness's outbox worker, delivering through the test registry. */
const testOutbox = (h: Harness, overrides: Partial<OutboxDeps> = {}): OutboxDeps => ({
  ...h.runtime.outbox,
  deliver: (event) => registry.deliver(h.runtime.notifications, event),
  ...overrides,
});

/**
 * createOutboxWorker, as the API's embedded worker and apps/worker call it, with test kinds and one
 * loop for the other kinds (so that, without a loop of their own, a slow kind would hold it).
 */
const startTestWorker = (h: Harness, kinds: ReadonlyArray<EventKind<unknown, DeliveryDeps>>) =>
  createOutboxWorker({
    database: h.runtime.database,
    ...h.runtime.delivery,
    videoRooms: undefined,
    clock: h.runtime.clock,
    logger: h.runtime.logger,
    settings: {
      leaseSeconds: 60,
      batchSize: 10,
      loops: 1,
      slowBatchSize: 1,
      pendingAccountTtlSeconds: 172_800,
    },
    verifyEmailUrl: "agora://verify-email",
    emailUndoUrl: "agora://email-undo",
    kinds,
  });

const helpers = (h: Harness) => {
  const uow = createUnitOfWork(h.db, h.runtime.ids);

  return {
    /** Appends an event the way a use case does: through its unit of work. */
    append: (notifications: NotificationRequest[] | undefined, extra: Record<string, unknown> = {}) =>
      uow.run((tx) =>
        tx.outbox.append(testHappened.event("t-1", { notes: notifications ?? [], ...extra }), h.clock.now()),
      ),
    /** Appends an event of a kind no registry knows. */
    appendUnknown: () =>
      uow.run((tx) =>
        tx.outbox.append(
          { kind: "test.unknown", aggregateType: "test", aggregateId: "t-2", payload: {} },
          h.clock.now(),
        ),
      ),
    /** One batch, as the worker runs it, with the test registry. */
    runOnce: () => runOutboxOnce(testOutbox(h)),
    note: (userId: string, title = "Hello"): NotificationRequest => ({
      userId,
      kind: "test.happened",
      title,
      body: `${title}, world`,
      data: { order_id: "o-1", count: 2 },
    }),
    event: async (id: string) =>
      (
        await h.db.sql.query<EventRow>(
          "SELECT attempts, available_at, processed_at, dead_at, last_error FROM outbox_events WHERE id = $1",
          [id],
        )
      ).rows[0] as EventRow,
    inbox: async (eventId: string) =>
      (
        await h.db.sql.query<{ id: string; user_id: string; pushed_at: Date | null }>(
          "SELECT id, user_id, pushed_at FROM notifications WHERE event_id = $1 ORDER BY user_id",
          [eventId],
        )
      ).rows,
    /** A device of `userId`, registered by a live session of its own. */
    addDevice: async (userId: string, token: string) => {
      const sessionId = h.runtime.ids.next();
      await h.db.sql.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, $3)", [
        sessionId,
        userId,
        h.clock.now(),
      ]);

      return h.runtime.notifications.devices.register(
        { id: h.runtime.ids.next(), userId, sessionId, token, platform: "android", at: h.clock.now() },
        { takeOver: false },
      );
    },
  };
};

describe("outbox delivery of notifications", () => {
  let h: Harness;
  let push: MemoryPush;
  let t: ReturnType<typeof helpers>;

  beforeAll(async () => {
    push = createMemoryPush();
    h = await createHarness({ seed: false, push });
    t = helpers(h);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    push.clear();
  });

  it("writes one inbox row per recipient with the deterministic id, and marks the event processed", async () => {
    const [ada, bob] = [await h.createUser(), await h.createUser()];
    const eventId = await t.append([t.note(ada.id), t.note(bob.id), t.note(ada.id, "Again")]);

    const result = await t.runOnce();

    expect(result).toMatchObject({ claimed: 1, processed: 1, retried: 0, dead: 0 });
    const rows = await t.inbox(eventId);
    expect(rows.map((row) => row.id).sort()).toEqual(
      [notificationId(eventId, ada.id), notificationId(eventId, bob.id)].sort(),
    );
    expect((await t.event(eventId)).processed_at).toEqual(h.clock.now());
  });

  it("simply processes an event that notifies no one, and skips a recipient that does not exist", async () => {
    const plain = await t.append(undefined);
    const ghost = await t.append([t.note(h.runtime.ids.next())]);

    expect(await t.runOnce()).toMatchObject({ claimed: 2, processed: 2 });
    expect((await t.event(plain)).processed_at).not.toBeNull();
    expect((await t.event(ghost)).processed_at).not.toBeNull();
    expect(await t.inbox(ghost)).toEqual([]);
    expect(push.sent).toEqual([]);
  });

  it("never delivers an event whose transaction rolled back", async () => {
    const user = await h.createUser();
    const uow = createUnitOfWork(h.db, h.runtime.ids);
    await expect(
      uow.run(async (tx) => {
        await tx.outbox.append(testHappened.event("rolled-back", { notes: [] }), h.clock.now());
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");

    expect((await t.runOnce()).claimed).toBe(0);
    const { rows } = await h.db.sql.query("SELECT 1 FROM outbox_events WHERE aggregate_id = 'rolled-back'");
    expect(rows).toEqual([]);
    expect(
      (await h.runtime.notifications.notifications.listPage(user.id, { before: undefined, limit: 50 })).items,
    ).toEqual([]);
  });

  it("pushes each notification once to all of the recipient's devices and sets pushed_at", async () => {
    const [ada, bob] = [await h.createUser(), await h.createUser()];
    await t.addDevice(ada.id, "ada-phone");
    await t.addDevice(ada.id, "ada-tablet");
    const eventId = await t.append([t.note(ada.id, "Order placed"), t.note(bob.id)]);

    await t.runOnce();

    expect(push.sent).toEqual([
      {
        tokens: ["ada-phone", "ada-tablet"],
        message: {
          title: "Order placed",
          body: "Order placed, world",
          data: {
            order_id: "o-1",
            count: "2",
            notification_id: notificationId(eventId, ada.id),
            kind: "test.happened",
          },
          // Ada's unread count (unreadTotal): this notification.
          badge: 1,
        },
      },
    ]);
    const rows = await t.inbox(eventId);
    expect(rows.find((row) => row.user_id === ada.id)?.pushed_at).toEqual(h.clock.now());
    // Bob has no device: his row is in the inbox, nothing was pushed.
    expect(rows.find((row) => row.user_id === bob.id)?.pushed_at).toBeNull();
  });

  it("creates no duplicate inbox row and pushes nothing again when an event is delivered twice", async () => {
    const ada = await h.createUser();
    await t.addDevice(ada.id, "ada-redelivery");
    const eventId = await t.append([t.note(ada.id)]);
    await t.runOnce();

    // As if the worker died after delivering but before recording: the event is pending again.
    await h.db.sql.query("UPDATE outbox_events SET processed_at = NULL, available_at = $2 WHERE id = $1", [
      eventId,
      h.clock.now(),
    ]);
    expect(await t.runOnce()).toMatchObject({ claimed: 1, processed: 1 });

    expect(await t.inbox(eventId)).toHaveLength(1);
    expect(push.sentTo("ada-redelivery")).toHaveLength(1);
  });

  it("deletes the device tokens the push provider reports invalid and keeps the valid ones", async () => {
    const ada = await h.createUser();
    await t.addDevice(ada.id, "ada-uninstalled");
    await t.addDevice(ada.id, "ada-current");
    push.markInvalid("ada-uninstalled");
    const eventId = await t.append([t.note(ada.id)]);

    expect(await t.runOnce()).toMatchObject({ processed: 1 });

    expect(await h.runtime.notifications.devices.findTokensByUser(ada.id)).toEqual(["ada-current"]);
    expect((await t.inbox(eventId))[0]?.pushed_at).not.toBeNull();
  });

  it("keeps the inbox row when push fails, counts the attempt and backs off, then pushes once on the retry", async () => {
    const ada = await h.createUser();
    await t.addDevice(ada.id, "ada-flaky");
    const eventId = await t.append([t.note(ada.id)]);
    push.failNext(1);
    const failedAt = h.clock.now();

    expect(await t.runOnce()).toMatchObject({ claimed: 1, processed: 0, retried: 1 });

    const event = await t.event(eventId);
    expect(event).toMatchObject({
      attempts: 1,
      processed_at: null,
      dead_at: null,
      last_error: "PushUnavailableError: push provider unavailable",
    });
    expect(event.available_at.getTime()).toBeGreaterThan(failedAt.getTime());
    expect(event.available_at.getTime()).toBeLessThanOrEqual(failedAt.getTime() + OUTBOX_BACKOFF.baseMs);
    const rows = await t.inbox(eventId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.pushed_at).toBeNull();

    // Not due yet: nothing is claimed until the backoff has passed.
    expect((await t.runOnce()).claimed).toBe(0);
    h.clock.advance(OUTBOX_BACKOFF.baseMs);
    expect(await t.runOnce()).toMatchObject({ claimed: 1, processed: 1 });
    expect(push.sentTo("ada-flaky")).toHaveLength(1);
    expect(await t.inbox(eventId)).toHaveLength(1);
    expect((await t.event(eventId)).attempts).toBe(1);
  });

  it("dead-letters the event on the tenth failure, keeps it, and outbox retry re-drives it", async () => {
    const ada = await h.createUser();
    await t.addDevice(ada.id, "ada-outage");
    const eventId = await t.append([t.note(ada.id)]);
    push.failAll();

    for (let failure = 1; failure <= 9; failure += 1) {
      expect(await t.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
      expect(await t.event(eventId)).toMatchObject({ attempts: failure, dead_at: null });
      h.clock.advance(OUTBOX_BACKOFF.capMs);
    }
    expect(await t.runOnce()).toMatchObject({ claimed: 1, dead: 1 });
    const dead = await t.event(eventId);
    expect(dead).toMatchObject({
      attempts: 10,
      processed_at: null,
      last_error: "PushUnavailableError: push provider unavailable",
    });
    expect(dead.dead_at).toEqual(h.clock.now());
    h.clock.advance(OUTBOX_BACKOFF.capMs * 10);
    expect((await t.runOnce()).claimed).toBe(0);
    expect(push.failures).toBe(10);
    expect(await t.inbox(eventId)).toHaveLength(1);

    push.failAll(false);
    expect(await retryDeadEvents(h.runtime.outbox, { eventId })).toBe(1);
    expect(await t.event(eventId)).toMatchObject({ attempts: 0, dead_at: null });
    expect(await t.runOnce()).toMatchObject({ claimed: 1, processed: 1 });
    expect(push.sentTo("ada-outage")).toHaveLength(1);
    expect(await retryDeadEvents(h.runtime.outbox)).toBe(0);
  });

  it("dead-letters a payload its kind's schema refuses at once instead of retrying it", async () => {
    const eventId = await t.append(undefined, { notes: "not a list" });

    expect(await t.runOnce()).toMatchObject({ claimed: 1, dead: 1 });

    expect(await t.event(eventId)).toMatchObject({
      attempts: 1,
      last_error: expect.stringMatching(
        /^PermanentDeliveryError: payload of test\.happened is invalid: notes /,
      ),
    });
    expect((await t.event(eventId)).dead_at).not.toBeNull();
  });

  it("dead-letters an event of an unknown kind at once, keeping it with a clear error", async () => {
    const eventId = await t.appendUnknown();

    expect(await t.runOnce()).toMatchObject({ claimed: 1, processed: 0, dead: 1 });

    expect(await t.event(eventId)).toMatchObject({
      attempts: 1,
      processed_at: null,
      last_error: 'PermanentDeliveryError: unknown event kind "test.unknown"',
    });
    expect((await t.event(eventId)).dead_at).not.toBeNull();
    // The product's own registry does not know it either: it is never silently dropped.
    expect(await t.event(eventId)).toBeDefined();
  });

  it("runs as a loop: delivers an event appended while idle, and resolves after abort", async () => {
    const ada = await h.createUser();
    const controller = new AbortController();
    const outcomes: OutboxOutcome["type"][] = [];
    const loop = runOutbox(testOutbox(h, { observe: (outcome) => outcomes.push(outcome.type) }), {
      signal: controller.signal,
      pollIntervalMs: 20,
    });
    await sleep(60);
    const eventId = await t.append([t.note(ada.id)]);
    await eventually(async () => (await t.inbox(eventId)).length === 1, 2_000);

    controller.abort();
    await loop;
    // Each turn of the loop also reports its claim (the worker's liveness signal).
    expect(outcomes.filter((type) => type !== "claimed")).toEqual(["processed"]);
    expect(outcomes).toContain("claimed");
    expect((await t.event(eventId)).processed_at).not.toBeNull();
  });

  it("marks each full batch processed with the next claim: a backlog of several batches is delivered once each", async () => {
    const ada = await h.createUser();
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      ids.push(await t.append([t.note(ada.id, `#${index}`)]));
    }
    const processed: string[] = [];
    const controller = new AbortController();
    const loop = runOutbox(
      testOutbox(h, {
        observe: (outcome) => {
          if (outcome.type === "processed") {
            processed.push(outcome.event.id);
          }
        },
      }),
      { signal: controller.signal, batchSize: 2, pollIntervalMs: 20 },
    );
    try {
      await eventually(async () => {
        const { rows } = await h.db.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM outbox_events WHERE id = ANY($1::uuid[]) AND processed_at IS NOT NULL",
          [ids],
        );

        return rows[0]?.n === ids.length;
      }, 5_000);
    } finally {
      controller.abort();
      await loop;
    }
    expect(processed.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(await t.inbox(id)).toHaveLength(1);
      expect((await t.event(id)).attempts).toBe(0);
    }
  });

  it("runs as createOutboxWorker (the API's embedded worker and apps/worker) and stops cleanly", async () => {
    const ada = await h.createUser();
    // createOutboxWorker, as the API's embedded worker and apps/worker call it, with the test kind.
    const worker = await startTestWorker(h, [testHappened]);
    expect(worker.kinds).toEqual(["test.happened"]);
    try {
      const eventId = await t.append([t.note(ada.id)]);
      await eventually(async () => (await t.event(eventId)).processed_at !== null, 5_000);
      expect(await t.inbox(eventId)).toHaveLength(1);
    } finally {
      await worker.stop();
      await worker.close();
    }
  });

  it("claims by kind: only the kinds named, or all but those", async () => {
    const happened = await t.append([]);
    const unknown = await t.appendUnknown();
    const claim = (kinds: Parameters<OutboxDeps["outbox"]["claim"]>[4]) => {
      const now = h.clock.now();

      return h.runtime.outbox.outbox.claim(now, new Date(now.getTime() + 60_000), 10, undefined, kinds);
    };
    const ids = (events: { id: string }[]) =>
      events.map((event) => event.id).filter((id) => [happened, unknown].includes(id));
    expect(ids(await claim({ only: ["test.unknown"] }))).toEqual([unknown]);
    expect(ids(await claim({ except: ["test.unknown"] }))).toEqual([happened]);
    expect(ids(await claim(undefined))).toEqual([]);
  });

  it("gives slow kinds a claim loop of their own: a long delivery never holds another kind's", async () => {
    const ada = await h.createUser();
    slowGate = gate();
    slowStarted.length = 0;
    const worker = await startTestWorker(h, [testHappened, testSlow]);
    expect(worker.loops).toBe(2);
    const uow = createUnitOfWork(h.db, h.runtime.ids);
    try {
      const slowIds = [
        await uow.run((tx) => tx.outbox.append(testSlow.event("s-1", {}), h.clock.now())),
        await uow.run((tx) => tx.outbox.append(testSlow.event("s-2", {}), h.clock.now())),
      ];
      await eventually(async () => slowStarted.length === 1, 5_000);
      const fastId = await t.append([t.note(ada.id)]);
      // Delivered and recorded while the slow one is still at work, the second slow one waiting.
      await eventually(async () => (await t.event(fastId)).processed_at !== null, 5_000);
      expect(await t.inbox(fastId)).toHaveLength(1);
      expect(slowStarted).toEqual([slowIds[0]]);
      expect((await t.event(slowIds[0] ?? "")).processed_at).toBeNull();
      slowGate.open();
      for (const id of slowIds) {
        await eventually(async () => (await t.event(id)).processed_at !== null, 5_000);
      }
    } finally {
      slowGate.open();
      await worker.stop();
      await worker.close();
    }
  });
});

describe("outbox delivery with push off", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("only writes inbox rows when no push provider is configured", async () => {
    const t = helpers(h);
    const ada = await h.createUser();
    await t.addDevice(ada.id, "ada-without-fcm");
    const eventId = await t.append([t.note(ada.id)]);

    expect(h.runtime.notifications.push).toBeUndefined();
    expect(await t.runOnce()).toMatchObject({ processed: 1 });
    const rows = await t.inbox(eventId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.pushed_at).toBeNull();
  });
});

describe.skipIf(!onPostgres)(
  "outbox workers in parallel (PostgreSQL only: needs separate connections)",
  () => {
    let h: Harness;

    beforeAll(async () => {
      h = await createHarness({ seed: false });
    });
    afterAll(async () => {
      await h?.close();
    });

    it("two workers on separate pools deliver each of 200 events exactly once", async () => {
      const t = helpers(h);
      const users = await Promise.all(Array.from({ length: 5 }, () => h.createUser()));
      for (const [index, user] of users.entries()) {
        await t.addDevice(user.id, `parallel-${index}`);
      }
      const eventIds = new Set<string>();
      for (let index = 0; index < 200; index += 1) {
        const user = users[index % users.length];
        if (user) {
          eventIds.add(await t.append([t.note(user.id, `#${index}`)]));
        }
      }

      const workers = await Promise.all(
        [1, 2].map(async () => {
          const database = await openTestPool(h.databaseUrl, { poolMax: 4 });
          const push = createMemoryPush();
          const processed: string[] = [];
          const repos = createOutboxRepositories(database);
          const delivery: OutboxDeps = {
            outbox: repos.outbox,
            deliver: (event) =>
              registry.deliver(
                { notifications: repos.notifications, devices: repos.devices, push, clock: systemClock },
                event,
              ),
            clock: systemClock,
            random: Math.random,
            observe: (outcome: OutboxOutcome) => {
              if (outcome.type === "processed") {
                processed.push(outcome.event.id);
              }
            },
          };

          return { database, push, processed, delivery };
        }),
      );
      const controller = new AbortController();
      const loops = workers.map((worker) =>
        runOutbox(worker.delivery, { signal: controller.signal, batchSize: 5, pollIntervalMs: 10 }),
      );
      try {
        await eventually(async () => {
          const { rows } = await h.db.sql.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL",
          );

          return rows[0]?.n === 0;
        }, 30_000);
      } finally {
        controller.abort();
        await Promise.all(loops);
        await Promise.all(workers.map((worker) => worker.database.close()));
      }

      const processed = workers.flatMap((worker) => worker.processed);
      expect(processed).toHaveLength(200);
      expect(new Set(processed)).toEqual(eventIds);
      // Both really worked: the claims interleaved instead of one worker taking everything.
      for (const worker of workers) {
        expect(worker.processed.length).toBeGreaterThan(0);
      }
      const pushed = workers.flatMap((worker) =>
        worker.push.sent.map((sent) => sent.message.data.notification_id),
      );
      expect(pushed).toHaveLength(200);
      expect(new Set(pushed).size).toBe(200);
      const { rows } = await h.db.sql.query<{ n: number; unpushed: number }>(
        "SELECT count(*)::int AS n, count(*) FILTER (WHERE pushed_at IS NULL)::int AS unpushed FROM notifications",
      );
      expect(rows[0]).toEqual({ n: 200, unpushed: 0 });
    });
  },
);

describe.skipIf(!onPostgres)(
  "waking an idle worker (PostgreSQL only: PGlite has one session, so its worker polls)",
  () => {
    let h: Harness;

    beforeAll(async () => {
      h = await createHarness({ seed: false });
    });
    afterAll(async () => {
      await h?.close();
    });

    it("wakes a waiting loop when an event is written instead of at its next poll, and writers notify only while one waits", async () => {
      const t = helpers(h);
      const ada = await h.createUser();
      const wakeup = openOutboxWakeup(h.db);
      if (!wakeup) {
        throw new Error("PostgreSQL has a wake-up source");
      }
      await wakeup.start();
      const first = await t.append([t.note(ada.id, "first")]);
      const controller = new AbortController();
      const loop = runOutbox(testOutbox(h), { signal: controller.signal, pollIntervalMs: 120_000, wakeup });
      const waiting = async () => {
        const { rows } = await h.db.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND mode = 'ExclusiveLock' AND granted",
          [OUTBOX_WAITING_LOCK],
        );

        return rows[0]?.n === 1;
      };
      try {
        // The first claim delivers it; the batch was not full, so the loop now waits two minutes,
        // holding the lock that makes writers notify.
        await eventually(async () => (await t.event(first)).processed_at !== null, 5_000);
        await eventually(waiting, 5_000);
        const second = await t.append([t.note(ada.id, "second")]);
        await eventually(async () => (await t.event(second)).processed_at !== null, 5_000);
        expect(await t.inbox(second)).toHaveLength(1);
        // Waiting again after it (and only one lock for the process).
        await eventually(waiting, 5_000);
      } finally {
        controller.abort();
        await loop;
        await wakeup.close();
      }
      // Nobody waits: the lock is gone, so writers do not notify.
      expect(await waiting()).toBe(false);
    });
  },
);
