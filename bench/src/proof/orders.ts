// Orders with Idempotency-Keys through the balancer, under autocannon's load: every request's key,
// caller and body are recorded with what it got back; a key that never got a 2xx is then retried
// (same key, same body) until it does; and the database is asked whether each key made exactly one
// order, one order.created event and one inbox row per recipient.
import { randomUUID } from "node:crypto";
import { sleep } from "@agora/testing/eventually";
import autocannon from "autocannon";
import type pg from "pg";
import type { Member, Provider } from "./world.ts";

/** One Idempotency-Key: who sent it with which body, and every answer it got. */
export type KeyRecord = {
  key: string;
  member: Member;
  body: string;
  /** Requests sent with this key (load and retries). */
  sent: number;
  statuses: number[];
  /** Order ids named by its 2xx answers (more than one would be a duplicate effect). */
  orderIds: Set<string>;
};

export type OrderLoad = {
  records: Map<string, KeyRecord>;
  /** Requests autocannon built and sent. */
  sent: number;
  /** Answers to those requests (any status). */
  answered: number;
  byStatus: Map<string, number>;
};

const isOk = (status: number) => status >= 200 && status < 300;

const record = (records: Map<string, KeyRecord>, member: Member, provider: Provider): KeyRecord => {
  const key = `proof-${randomUUID()}`;
  const created: KeyRecord = {
    key,
    member,
    // The key travels in the order's notes too, so the database can be asked about each key.
    body: JSON.stringify({ menu_item_id: provider.itemId, quantity: 1, notes: key }),
    sent: 0,
    statuses: [],
    orderIds: new Set(),
  };
  records.set(key, created);

  return created;
};

const noteAnswer = (found: KeyRecord, status: number, body: string) => {
  found.statuses.push(status);
  if (isOk(status)) {
    try {
      const id = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
      if (id) {
        found.orderIds.add(id);
      }
    } catch {
      // A 2xx without the envelope would show up as a key without an order id.
    }
  }
};

/**
 * POST /api/v1/orders through `origin` with `connections` connections until `until` resolves.
 * A share `replayShare` of requests repeats an earlier key (same member, same body), at once or
 * later, so replays race their originals.
 */
export const loadOrders = async ({
  origin,
  members,
  provider,
  connections,
  until,
  replayShare,
}: {
  origin: string;
  members: Member[];
  provider: Provider;
  connections: number;
  until: Promise<unknown>;
  replayShare: number;
}): Promise<OrderLoad> => {
  const records = new Map<string, KeyRecord>();
  const issued: KeyRecord[] = [];
  let sent = 0;
  let answered = 0;
  const byStatus = new Map<string, number>();
  let turn = 0;
  let winding = false;

  const next = (): KeyRecord => {
    turn += 1;
    if (issued.length > 0 && Math.random() < replayShare) {
      // The latest keys: a replay often arrives while its original is still being handled.
      const recent = issued.slice(-connections);

      return recent[Math.floor(Math.random() * recent.length)] as KeyRecord;
    }
    const created = record(records, members[turn % members.length] as Member, provider);
    issued.push(created);

    return created;
  };

  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const instance = autocannon(
    {
      url: `${origin}/api/v1/orders`,
      method: "POST",
      connections,
      pipelining: 1,
      // Stopped by `until`; the duration is only a ceiling.
      duration: 600,
      timeout: 15,
      requests: [
        {
          setupRequest: (request, context) => {
            if (winding) {
              // Load is over: connections idle on a cheap read while the last orders are answered.
              (context as { key?: string }).key = undefined;

              return { ...request, method: "GET", path: "/health", headers: {}, body: undefined };
            }
            const chosen = next();
            chosen.sent += 1;
            sent += 1;
            (context as { key?: string }).key = chosen.key;

            return {
              ...request,
              method: "POST",
              path: "/api/v1/orders",
              headers: {
                ...request.headers,
                "content-type": "application/json",
                authorization: `Bearer ${chosen.member.token}`,
                "idempotency-key": chosen.key,
              },
              body: chosen.body,
            };
          },
          onResponse: (status, body, context) => {
            const found = records.get((context as { key?: string }).key ?? "");
            if (!found) {
              return;
            }
            answered += 1;
            byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1);
            noteAnswer(found, status, body);
          },
        },
      ],
    },
    // Called when stopped: the results are ours already, counted per key.
    () => finished(),
  );
  await until;
  // Orders already sent get their answers (up to 5 s) before the load stops; one the connection
  // lost meanwhile stays unanswered and is retried like any other failure.
  winding = true;
  for (let waited = 0; answered < sent && waited < 5_000; waited += 50) {
    await sleep(50);
  }
  instance.stop();
  await done;

  return { records, sent, answered, byStatus };
};

/**
 * Every key without a 2xx is sent again (same member, key and body) until it gets one: a request
 * that failed (refused, cut, 5xx, or 409 while its original was still in flight) can be retried
 * with its key. Returns how many retries were sent.
 */
export const retryUnanswered = async (origin: string, records: Iterable<KeyRecord>): Promise<number> => {
  let retries = 0;
  const pending = [...records].filter((found) => !found.statuses.some(isOk));
  for (let attempt = 1; attempt <= 10 && pending.length > 0; attempt += 1) {
    for (const found of [...pending]) {
      retries += 1;
      found.sent += 1;
      const response = await fetch(`${origin}/api/v1/orders`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${found.member.token}`,
          "idempotency-key": found.key,
        },
        body: found.body,
      }).catch(() => undefined);
      if (response) {
        noteAnswer(found, response.status, await response.text());
      }
      if (found.statuses.some(isOk)) {
        pending.splice(pending.indexOf(found), 1);
      }
    }
    if (pending.length > 0) {
      await sleep(200 * attempt);
    }
  }

  return retries;
};

/** Waits until no order.created event of these orders is pending (workers delivered them all). */
const drained = async (client: pg.Client, orderIds: string[], timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM outbox_events
        WHERE kind = 'order.created' AND aggregate_id = ANY($1::text[]) AND processed_at IS NULL`,
      [orderIds],
    );
    if ((rows[0]?.pending ?? 0) === 0) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`${rows[0]?.pending} order events still undelivered after ${timeoutMs} ms`);
    }
    await sleep(200);
  }
};

export type OrderCheck = {
  keys: number;
  acknowledged: number;
  orders: number;
  /** Orders beyond one per key, 2xx answers naming different orders for one key, events beyond one per order, inbox rows beyond one per (event, recipient). */
  duplicates: number;
  /** Acknowledged keys without an order; keys still without one after the retries; inbox rows missing. */
  lost: number;
  dead: number;
};

/**
 * What the database holds for these keys once the outbox drained: each key one order, each order
 * one order.created event, each event one inbox row for the provider and one for the member.
 */
export const checkOrders = async (
  client: pg.Client,
  records: Iterable<KeyRecord>,
  drainTimeoutMs = 60_000,
): Promise<OrderCheck> => {
  const keys = [...records];
  const byKey = await client.query<{ notes: string; ids: string[] }>(
    "SELECT notes, array_agg(id::text) AS ids FROM orders WHERE notes = ANY($1::text[]) GROUP BY notes",
    [keys.map((found) => found.key)],
  );
  const ordersOf = new Map(byKey.rows.map((row) => [row.notes, row.ids]));
  let duplicates = 0;
  let lost = 0;
  for (const found of keys) {
    const stored = ordersOf.get(found.key) ?? [];
    duplicates += Math.max(0, stored.length - 1);
    if (found.orderIds.size > 1) {
      duplicates += found.orderIds.size - 1;
    }
    const acknowledged = found.statuses.some(isOk);
    // Acknowledged but not stored, or never made to work at all.
    if (stored.length === 0) {
      lost += 1;
    } else if (acknowledged && [...found.orderIds].some((id) => !stored.includes(id))) {
      lost += 1;
    }
  }
  const orderIds = [...ordersOf.values()].flat();
  await drained(client, orderIds, drainTimeoutMs);
  const delivery = await client.query<{
    events: number;
    inbox: number;
    distinct_inbox: number;
    dead: number;
  }>(
    `SELECT count(DISTINCT e.id)::int AS events, count(n.id)::int AS inbox,
            count(DISTINCT (n.event_id, n.user_id))::int AS distinct_inbox,
            count(DISTINCT e.id) FILTER (WHERE e.dead_at IS NOT NULL)::int AS dead
       FROM outbox_events e LEFT JOIN notifications n ON n.event_id = e.id
      WHERE e.kind = 'order.created' AND e.aggregate_id = ANY($1::text[])`,
    [orderIds],
  );
  const row = delivery.rows[0] ?? { events: 0, inbox: 0, distinct_inbox: 0, dead: 0 };
  duplicates += Math.max(0, row.events - orderIds.length) + (row.inbox - row.distinct_inbox);
  // Each order tells its provider and its member: two inbox rows.
  lost += Math.max(0, orderIds.length - row.events) + Math.max(0, orderIds.length * 2 - row.distinct_inbox);

  return {
    keys: keys.length,
    acknowledged: keys.filter((found) => found.statuses.some(isOk)).length,
    orders: orderIds.length,
    duplicates,
    lost,
    dead: row.dead,
  };
};
