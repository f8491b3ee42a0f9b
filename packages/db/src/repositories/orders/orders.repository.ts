import type { OrderRepository } from "@agora/domain/orders/orders.ports";
import type { Order, OrderStatus } from "@agora/domain/orders/orders.types";
import type { PaymentStatus } from "@agora/domain/payments/payments.types";
import { createFilters, selectPage, substringPattern } from "../../filters";
import type { Order as OrderModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { keyConflict, keyValues } from "../idempotency.repository";
import { liveSessionAt } from "../identity/sessions.repository";
import { orderableAt } from "../marketplace/listing-queries";

type OrderRow = Omit<
  RowOf<OrderModel>,
  | "guest_phone"
  | "guest_token_hash"
  | "guest_token_expires_at"
  | "guest_token_sealed"
  | "guest_mail_stopped_at"
> & {
  provider_user_id: string;
};

/** An order row as `row_to_json` gives it (amounts as numbers, timestamps as text). */
type OrderJson = Omit<
  OrderRow,
  "unit_price_amount" | "total_amount" | "schedule_at" | "created_at" | "updated_at"
> & {
  unit_price_amount: number;
  total_amount: number;
  schedule_at: string | null;
  created_at: string;
  updated_at: string;
};

const orderColumns = `o.id, o.customer_id, o.guest_email, o.provider_id,
  (SELECT user_id FROM provider_profiles WHERE id = o.provider_id) AS provider_user_id,
  o.listing_id, o.menu_item_id, o.item_name, o.unit_price_amount, o.quantity, o.total_amount, o.currency,
  o.status, o.payment_status, o.version, o.notes, o.schedule_at, o.created_at, o.updated_at`;

const toOrder = (row: OrderRow): Order => ({
  id: row.id,
  customerId: row.customer_id,
  guestEmail: row.guest_email,
  providerId: row.provider_id,
  providerUserId: row.provider_user_id,
  listingId: row.listing_id,
  menuItemId: row.menu_item_id,
  itemName: row.item_name,
  unitPriceAmount: Number(row.unit_price_amount),
  quantity: row.quantity,
  totalAmount: Number(row.total_amount),
  currency: row.currency,
  status: row.status as OrderStatus,
  paymentStatus: row.payment_status as PaymentStatus,
  version: row.version,
  notes: row.notes,
  scheduleAt: row.schedule_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// The order ($1-$17, $17 its creation time; $24 its sealed guest capability) and its outbox event
// ($18-$22), written by one statement: both or neither. The event is written from the inserted
// order's row, so it exists only if the order does.
const orderInsert = `INSERT INTO orders (id, customer_id, guest_email, guest_phone, guest_token_hash,
                           guest_token_expires_at, provider_id, listing_id, menu_item_id, item_name,
                           unit_price_amount, quantity, total_amount, currency, notes, schedule_at,
                           created_at, updated_at, guest_token_sealed)`;
const orderValues = `$1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::timestamptz, $7::uuid, $8::uuid,
         $9::uuid, $10::text, $11::bigint, $12::int, $13::bigint, $14::text, $15::text, $16::timestamptz,
         $17::timestamptz, $17::timestamptz, $24::text`;

// What the order was decided from, checked again by the statement that writes it, at its time $17:
// the menu item ($9) is still orderable on its listing ($8, provider $7) with the name, price and
// currency the order copies, and the member's session ($23, null for a guest) is still the
// customer's ($2) and live with the absolute lifetime $25: the rules of orderableAt and
// liveSessionAt.
const fresh = `fresh AS (
         SELECT EXISTS (
                  SELECT 1 FROM menu_items m JOIN listings l ON l.id = m.listing_id
                   WHERE m.id = $9::uuid AND m.name = $10::text AND m.price_amount = $11::bigint
                     AND m.currency = $14::text AND l.id = $8::uuid AND l.provider_id = $7::uuid
                     AND ${orderableAt("$17::timestamptz")})
                AND ($23::uuid IS NULL OR EXISTS (
                  SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
                   WHERE s.id = $23::uuid AND u.id = $2::uuid
                     AND ${liveSessionAt("$17::timestamptz", "$25::int")})) AS ok
       )`;
const eventInsert = `events AS (
         INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at,
                                    created_at)
         SELECT $18::uuid, $19::text, $20::text, $21::text, $22::jsonb, 0, $17::timestamptz, $17::timestamptz
           FROM placed
       )`;
const outcome = "SELECT fresh.ok, (SELECT count(*) FROM placed)::int AS placed FROM fresh";

const placeStatement = {
  name: "orders_place",
  text: `WITH ${fresh}, placed AS (
         ${orderInsert}
         SELECT ${orderValues} FROM fresh WHERE fresh.ok
         RETURNING id
       ), ${eventInsert}
       ${outcome}`,
};

// With an idempotency record ($26-$33, its creation time $32 the "now" a live key is judged at,
// as in IdempotencyStore.save): the key's insert goes first and the order is written
// from its returned row, so a live key (no row: another request holds it) writes nothing at all.
// A concurrent insert of the same key waits for the other statement's commit, as in
// IdempotencyStore.save. Nothing is recorded when the reads were stale.
const placeKeyedStatement = {
  name: "orders_place_keyed",
  text: `WITH ${fresh}, recorded AS (
         INSERT INTO idempotency_keys (scope, route, key, fingerprint, outcome, sealed_secret, created_at, expires_at)
         SELECT $26::text, $27::text, $28::text, $29::text, $30::jsonb, $31::text, $32::timestamptz,
                $33::timestamptz
           FROM fresh WHERE fresh.ok
         ${keyConflict("$32::timestamptz")}
         RETURNING 1
       ), placed AS (
         ${orderInsert}
         SELECT ${orderValues} FROM recorded
         RETURNING id
       ), ${eventInsert}
       ${outcome}`,
};

export const createOrderRepository = (db: SqlExecutor): OrderRepository => ({
  async place(order, event, record, session) {
    const values = [
      order.id,
      order.customerId,
      order.guestEmail,
      order.guestPhone,
      order.guestTokenHash,
      order.guestTokenExpiresAt,
      order.providerId,
      order.listingId,
      order.menuItemId,
      order.itemName,
      order.unitPriceAmount,
      order.quantity,
      order.totalAmount,
      order.currency,
      order.notes,
      order.scheduleAt,
      order.createdAt,
      event.id,
      event.kind,
      event.aggregateType,
      event.aggregateId,
      JSON.stringify(event.payload),
      session?.id ?? null,
      order.guestTokenSealed,
      session?.maxAgeSeconds ?? null,
    ];
    const { text, name } = record ? placeKeyedStatement : placeStatement;
    const { rows } = await db.query<{ ok: boolean; placed: number }>(
      text,
      record ? [...values, ...keyValues(record)] : values,
      name,
    );
    const row = rows[0];
    if (!row?.ok) {
      return "stale";
    }

    return row.placed === 1 ? "placed" : "key_taken";
  },

  async findById(id) {
    const { rows } = await db.query<OrderRow>(
      `SELECT ${orderColumns} FROM orders o WHERE o.id = $1`,
      [idParam(id)],
      "orders_by_id",
    );

    return rows[0] ? toOrder(rows[0]) : null;
  },

  async findByGuestToken(id, tokenHash, now) {
    const { rows } = await db.query<OrderRow>(
      `SELECT ${orderColumns} FROM orders o
        WHERE o.id = $1 AND o.guest_token_hash = $2 AND o.guest_token_expires_at > $3`,
      [idParam(id), tokenHash, now],
    );

    return rows[0] ? toOrder(rows[0]) : null;
  },

  async findGuestReceipt(id) {
    const { rows } = await db.query<
      OrderRow & { guest_token_sealed: string | null; guest_mail_stopped_at: Date | null }
    >(
      `SELECT ${orderColumns}, o.guest_token_sealed, o.guest_mail_stopped_at FROM orders o WHERE o.id = $1`,
      [idParam(id)],
      "orders_guest_receipt",
    );
    const row = rows[0];
    if (!row?.guest_email || row.customer_id !== null || row.guest_token_sealed === null) {
      return null;
    }

    return {
      order: toOrder(row),
      email: row.guest_email,
      sealedToken: row.guest_token_sealed,
      mailStoppedAt: row.guest_mail_stopped_at,
    };
  },

  async stopGuestMail(id, at) {
    const { rows } = await db.query(
      `UPDATE orders SET guest_mail_stopped_at = COALESCE(guest_mail_stopped_at, $2)
        WHERE id = $1 AND customer_id IS NULL AND guest_email IS NOT NULL
        RETURNING 1`,
      [idParam(id), at],
      "orders_stop_guest_mail",
    );

    return rows.length === 1;
  },

  async listByParticipant(userId, providerId, page) {
    // Two index-ordered arms (as customer, as provider) merged; the total counts them once.
    const { rows } = await db.query<{ total: number; items: OrderJson[] | null }>(
      `WITH mine AS (
         (SELECT o.id, o.created_at FROM orders o WHERE o.customer_id = $1
           ORDER BY o.created_at DESC, o.id DESC LIMIT $3)
         UNION
         (SELECT o.id, o.created_at FROM orders o WHERE o.provider_id = $2
           ORDER BY o.created_at DESC, o.id DESC LIMIT $3)
       ), page AS (
         SELECT id, created_at FROM mine ORDER BY created_at DESC, id DESC OFFSET $4 LIMIT $5
       )
       SELECT (SELECT count(*)::int FROM orders o WHERE o.customer_id = $1 OR o.provider_id = $2) AS total,
              (SELECT json_agg(row_to_json(x) ORDER BY x.created_at DESC, x.id DESC) FROM (
                 SELECT ${orderColumns} FROM page JOIN orders o ON o.id = page.id) x) AS items`,
      [userId, providerId, page.offset + page.limit, page.offset, page.limit],
      "orders_for_user",
    );
    const row = rows[0];

    return {
      total: row?.total ?? 0,
      items: (row?.items ?? []).map((item) =>
        toOrder({
          ...item,
          unit_price_amount: String(item.unit_price_amount),
          total_amount: String(item.total_amount),
          schedule_at: item.schedule_at ? new Date(item.schedule_at) : null,
          created_at: new Date(item.created_at),
          updated_at: new Date(item.updated_at),
        }),
      ),
    };
  },

  async findPage(filter, page) {
    const filters = createFilters();
    filters.where(filter.status !== undefined && `o.status = ${filters.param(filter.status)}`);
    if (filter.serviceIds !== undefined) {
      filters.where(
        `o.listing_id IN (SELECT l.id FROM listings l JOIN categories c ON c.id = l.category_id
                           WHERE c.service_id = ANY(${filters.param(filter.serviceIds)}::uuid[]))`,
      );
    }
    const scope = filters.sql();
    let matched: string | undefined;
    if (filter.q !== undefined) {
      // Three disjoint branches (so UNION ALL, without a hash to remove duplicates): the orders
      // carrying a matching item name (the names matched by trigram in menu_item_names, the
      // orders found on the item-name b-tree, index-only), those whose guest email matches, and
      // the order whose id is `q`.
      const pattern = filters.param(substringPattern(filter.q));
      const id = idParam(filter.q);
      const names = "(SELECT list FROM names)::text[]";
      matched = `WITH names AS (SELECT ARRAY(SELECT n.name FROM menu_item_names n WHERE n.name ILIKE ${pattern}) AS list)
        SELECT o.id, o.created_at FROM orders o WHERE o.item_name = ANY(${names}) AND ${scope}
        UNION ALL
        SELECT o.id, o.created_at FROM orders o
         WHERE o.guest_email ILIKE ${pattern} AND o.item_name <> ALL(${names}) AND ${scope}${
           id
             ? `
        UNION ALL
        SELECT o.id, o.created_at FROM orders o
         WHERE o.id = ${filters.param(id)} AND o.item_name <> ALL(${names})
           AND NOT coalesce(o.guest_email ILIKE ${pattern}, false) AND ${scope}`
             : ""
         }`;
    }
    const { rows, total } = await selectPage<OrderRow>(
      db,
      {
        select: orderColumns,
        from: "orders o",
        order: { table: "o", direction: "DESC" },
        filters,
        search: matched !== undefined,
        matched,
      },
      page,
    );

    return { items: rows.map(toOrder), total };
  },

  async transition(id, from, expectedVersion, to, at) {
    const { rows } = await db.query<OrderRow>(
      `UPDATE orders o SET status = $4, version = o.version + 1, updated_at = $5
        WHERE o.id = $1 AND o.status = $2 AND o.version = $3
       RETURNING ${orderColumns}`,
      [id, from, expectedVersion, to, at],
      "orders_transition",
    );

    return rows[0] ? toOrder(rows[0]) : null;
  },

  async setPaymentStatus(id, status, at) {
    await db.query("UPDATE orders SET payment_status = $2, updated_at = $3 WHERE id = $1", [id, status, at]);
  },

  async clearCustomerNotes(customerId, at) {
    await db.query(
      "UPDATE orders SET notes = NULL, updated_at = $2 WHERE customer_id = $1 AND notes IS NOT NULL",
      [idParam(customerId), at],
    );
  },
});
