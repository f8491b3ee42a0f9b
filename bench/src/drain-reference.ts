// The drain benchmark's raw reference: a plain `pg` loop that delivers order.created events into
// the inbox with the outbox's own statements (claim, folded with marking the previous batch while
// batches are full; the inbox insert; imported from packages/db) in the same batches, on one bare
// connection per loop. No event registry, no payload validation, no pool, no logging: what is
// left of the worker's cost is the database's.
// Usage: node --import ./bench/src/resolve-ts.ts bench/src/drain-reference.ts <batch size> <loops> [statements]
// where statements (for the lever table) is "batch+fold" (the worker's: default), "batch" (the
// batch marked by a statement of its own) or "per-event" (an inbox INSERT per event, as the worker
// wrote them before, and a statement of its own for the mark).
import { createNotificationRepository } from "@agora/db/repositories/notifications/notifications.repository";
import { createOutboxStore } from "@agora/db/repositories/outbox/outbox-events.repository";
import { notificationId } from "@agora/domain/notifications/notify";
import { OUTBOX_DEFAULTS } from "@agora/domain/outbox/run-outbox";
import pg from "pg";

type OrderCreated = {
  order_id: string;
  provider_user_id: string;
  customer_id: string | null;
  item_name: string;
  quantity: number;
};

const batchSize = Number(process.argv[2] || OUTBOX_DEFAULTS.batchSize);
// As many loops as the worker runs per process (OUTBOX_LOOPS; its default is 2, see
// packages/process/src/config.ts).
const loops = Number(process.argv[3] || process.env.OUTBOX_LOOPS || 2);
const statements = process.argv[4] || "batch+fold";
const fold = statements === "batch+fold";
const leaseMs = 60_000;

const executor = (client: pg.Client) => ({
  async query<T>(text: string, values: readonly unknown[] = [], name?: string) {
    const result = await client.query({ text, values: values as unknown[], ...(name ? { name } : {}) });

    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  },
  async exec(script: string) {
    await client.query(script);
  },
});

const loop = async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const outbox = createOutboxStore(executor(client));
  const notifications = createNotificationRepository(executor(client));
  let idle = 0;
  // As the worker does while batches are full: the next claim marks the previous batch processed.
  let unmarked: string[] = [];
  while (idle < 3) {
    const now = new Date();
    const events = await outbox.claim(
      now,
      new Date(now.getTime() + leaseMs),
      batchSize,
      unmarked.length > 0 ? { ids: unmarked, at: now } : undefined,
    );
    unmarked = [];
    if (events.length === 0) {
      idle += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    idle = 0;
    const rows = events.flatMap((event) => {
      const payload = event.payload as OrderCreated;
      const body = `${payload.quantity} × ${payload.item_name}`;
      const data = { order_id: payload.order_id };
      const recipients = [
        { userId: payload.provider_user_id, title: "New order" },
        ...(payload.customer_id ? [{ userId: payload.customer_id, title: "Order placed" }] : []),
      ];

      return recipients.map(({ userId, title }) => ({
        id: notificationId(event.id, userId),
        userId,
        eventId: event.id,
        kind: event.kind,
        title,
        body,
        data,
        createdAt: event.createdAt,
      }));
    });
    if (statements === "per-event") {
      for (const event of events) {
        await notifications.addMany(rows.filter((row) => row.eventId === event.id));
      }
    } else {
      await notifications.addMany(rows);
    }
    if (fold && events.length === batchSize) {
      unmarked = events.map((event) => event.id);
    } else {
      await outbox.markProcessed(
        events.map((event) => event.id),
        new Date(),
      );
    }
  }
  await client.end();
};

await Promise.all(Array.from({ length: loops }, loop));
