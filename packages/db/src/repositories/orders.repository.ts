import type {
  IdempotencyStore,
  OrderRepository,
  PaymentRepository,
  PaymentWithParties,
  SubscriptionRepository,
} from "@agora/domain/orders/orders.ports";
import type { Order, OrderStatus, Payment, PaymentStatus } from "@agora/domain/orders/orders.types";
import type { SqlExecutor } from "../sql";

// ─── orders ──────────────────────────────────────────────────────────────────

type OrderRow = {
  id: string;
  customer_id: string | null;
  guest_email: string | null;
  provider_id: string;
  provider_user_id: string;
  listing_id: string;
  menu_item_id: string;
  item_name: string;
  unit_price_amount: string | number;
  quantity: number;
  total_amount: string | number;
  currency: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  version: number;
  notes: string | null;
  schedule_at: Date | null;
  created_at: Date;
  updated_at: Date;
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
  status: row.status,
  paymentStatus: row.payment_status,
  version: row.version,
  notes: row.notes,
  scheduleAt: row.schedule_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const createOrderRepository = (db: SqlExecutor): OrderRepository => ({
  async findOrderableItem(menuItemId, now) {
    const { rows } = await db.query<{
      menu_item_id: string;
      listing_id: string;
      provider_id: string;
      provider_user_id: string;
      name: string;
      price_amount: string | number;
      currency: string;
    }>(
      `SELECT m.id AS menu_item_id, l.id AS listing_id, l.provider_id, p.user_id AS provider_user_id,
              m.name, m.price_amount, m.currency
         FROM menu_items m
         JOIN listings l ON l.id = m.listing_id
         JOIN provider_profiles p ON p.id = l.provider_id
        WHERE m.id = $1 AND m.active AND m.deleted_at IS NULL
          AND l.status = 'active' AND l.subscription_status = 'active' AND l.provider_approved
          AND l.subscription_expires_at > $2`,
      [menuItemId, now],
      "orders_orderable_item",
    );
    const row = rows[0];

    return row
      ? {
          menuItemId: row.menu_item_id,
          listingId: row.listing_id,
          providerId: row.provider_id,
          providerUserId: row.provider_user_id,
          name: row.name,
          priceAmount: Number(row.price_amount),
          currency: row.currency,
        }
      : null;
  },

  async create(order) {
    await db.query(
      `INSERT INTO orders (id, customer_id, guest_email, guest_phone, guest_token_hash, guest_token_expires_at,
                           provider_id, listing_id, menu_item_id, item_name, unit_price_amount, quantity,
                           total_amount, currency, notes, schedule_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
      [
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
      ],
      "orders_insert",
    );
  },

  async findById(id) {
    const { rows } = await db.query<OrderRow>(
      `SELECT ${orderColumns} FROM orders o WHERE o.id = $1`,
      [id],
      "orders_by_id",
    );

    return rows[0] ? toOrder(rows[0]) : null;
  },

  async findByGuestToken(id, tokenHash, now) {
    const { rows } = await db.query<OrderRow>(
      `SELECT ${orderColumns} FROM orders o
        WHERE o.id = $1 AND o.guest_token_hash = $2 AND o.guest_token_expires_at > $3`,
      [id, tokenHash, now],
    );

    return rows[0] ? toOrder(rows[0]) : null;
  },

  async listForUser(userId, providerId, page) {
    // Two index-ordered arms (as customer, as provider) merged; the total counts them once.
    const { rows } = await db.query<{ total: number; items: OrderRow[] | null }>(
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
          schedule_at: item.schedule_at ? new Date(item.schedule_at) : null,
          created_at: new Date(item.created_at),
          updated_at: new Date(item.updated_at),
        }),
      ),
    };
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

  async recordCompletion(order, ids, at) {
    const snapshot = {
      id: order.id,
      customer_id: order.customerId,
      provider_id: order.providerId,
      listing_id: order.listingId,
      menu_item_id: order.menuItemId,
      item_name: order.itemName,
      unit_price_amount: order.unitPriceAmount,
      quantity: order.quantity,
      total_amount: order.totalAmount,
      currency: order.currency,
      version: order.version,
      completed_at: at.toISOString(),
    };
    await db.query(
      `INSERT INTO completed_orders (id, order_id, provider_id, data, completed_at)
       VALUES ($1, $2, $3, $4::jsonb, $5) ON CONFLICT (order_id) DO NOTHING`,
      [ids.snapshotId, order.id, order.providerId, JSON.stringify(snapshot), at],
    );
    await db.query(
      `INSERT INTO sales (id, provider_id, source, order_id, amount, currency, description, occurred_at, created_at)
       VALUES ($1, $2, 'order', $3, $4, $5, $6, $7, $7) ON CONFLICT (order_id) DO NOTHING`,
      [
        ids.saleId,
        order.providerId,
        order.id,
        order.totalAmount,
        order.currency,
        `${order.quantity} × ${order.itemName}`,
        at,
      ],
    );
  },
});

// ─── payments ────────────────────────────────────────────────────────────────

type PaymentRow = {
  id: string;
  purpose: Payment["purpose"];
  order_id: string | null;
  listing_id: string | null;
  payer_id: string;
  amount: string | number;
  currency: string;
  status: PaymentStatus;
  method: Payment["method"];
  version: number;
  plan_duration_days: number | null;
  evidence_media_asset_id: string | null;
  evidence_note: string | null;
  created_at: Date;
  updated_at: Date;
};

const paymentColumns = `id, purpose, order_id, listing_id, payer_id, amount, currency, status, method, version,
  plan_duration_days, evidence_media_asset_id, evidence_note, created_at, updated_at`;

const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  purpose: row.purpose,
  purposeId: (row.purpose === "order" ? row.order_id : row.listing_id) ?? "",
  payerId: row.payer_id,
  amount: Number(row.amount),
  currency: row.currency,
  status: row.status,
  method: row.method,
  version: row.version,
  planDurationDays: row.plan_duration_days,
  evidenceMediaAssetId: row.evidence_media_asset_id,
  evidenceNote: row.evidence_note,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const createPaymentRepository = (db: SqlExecutor): PaymentRepository => ({
  async create(payment) {
    // DO NOTHING answers the one-open-payment partial unique indexes without aborting the transaction.
    const { rows } = await db.query(
      `INSERT INTO payments (id, purpose, order_id, listing_id, payer_id, amount, currency, status, method,
                             plan_duration_days, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'unpaid', $8, $9, $10, $10)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        payment.id,
        payment.purpose,
        payment.purpose === "order" ? payment.purposeId : null,
        payment.purpose === "listing_subscription" ? payment.purposeId : null,
        payment.payerId,
        payment.amount,
        payment.currency,
        payment.method,
        payment.planDurationDays,
        payment.createdAt,
      ],
    );

    return rows.length === 1 ? "created" : "open_exists";
  },

  async findById(id) {
    const { rows } = await db.query<
      PaymentRow & { provider_user_id: string; order_customer_id: string | null }
    >(
      `SELECT pay.*, COALESCE(op.user_id, lp.user_id) AS provider_user_id, o.customer_id AS order_customer_id
         FROM payments pay
         LEFT JOIN orders o ON o.id = pay.order_id
         LEFT JOIN provider_profiles op ON op.id = o.provider_id
         LEFT JOIN listings l ON l.id = pay.listing_id
         LEFT JOIN provider_profiles lp ON lp.id = l.provider_id
        WHERE pay.id = $1`,
      [id],
    );
    const row = rows[0];

    return row
      ? ({
          ...toPayment(row),
          providerUserId: row.provider_user_id,
          orderCustomerId: row.order_customer_id,
        } satisfies PaymentWithParties)
      : null;
  },

  async submit(id, expectedVersion, method, at) {
    const { rows } = await db.query<PaymentRow>(
      `UPDATE payments SET status = 'payment_submitted', method = $3, version = version + 1, submitted_at = $4, updated_at = $4
        WHERE id = $1 AND version = $2 AND status IN ('unpaid', 'payment_rejected')
       RETURNING ${paymentColumns}`,
      [id, expectedVersion, method, at],
    );

    return rows[0] ? toPayment(rows[0]) : null;
  },

  async addEvidence(id, evidence, at) {
    const { rows } = await db.query<PaymentRow>(
      `UPDATE payments
          SET evidence_media_asset_id = COALESCE($2::uuid, evidence_media_asset_id),
              evidence_note = COALESCE($3, evidence_note), updated_at = $4
        WHERE id = $1 RETURNING ${paymentColumns}`,
      [id, evidence.mediaAssetId, evidence.note, at],
    );

    return rows[0] ? toPayment(rows[0]) : null;
  },

  async decide(id, to, decidedBy, at) {
    const { rows } = await db.query<PaymentRow>(
      `UPDATE payments SET status = $2, version = version + 1, decided_at = $4, decided_by = $3, updated_at = $4
        WHERE id = $1 AND status = 'payment_submitted'
       RETURNING ${paymentColumns}`,
      [id, to, decidedBy, at],
    );

    return rows[0] ? toPayment(rows[0]) : null;
  },
});

// ─── subscriptions ───────────────────────────────────────────────────────────

export const createSubscriptionRepository = (db: SqlExecutor): SubscriptionRepository => ({
  async extend(listingId, days, now) {
    const { rows } = await db.query<{ subscription_expires_at: Date; published: boolean }>(
      `UPDATE listings l
          SET subscription_status = 'active',
              subscription_expires_at = GREATEST($2::timestamptz, COALESCE(l.subscription_expires_at, $2::timestamptz))
                                        + make_interval(days => $3::int),
              status = CASE WHEN l.status = 'draft' AND l.provider_approved THEN 'active' ELSE l.status END,
              updated_at = $2
         FROM listings before
        WHERE l.id = $1 AND before.id = l.id
       RETURNING l.subscription_expires_at, (before.status = 'draft' AND l.status = 'active') AS published`,
      [listingId, now, days],
    );
    const row = rows[0];
    if (!row) {
      throw new Error(`listing ${listingId} vanished while its subscription was confirmed`);
    }

    return { expiresAt: row.subscription_expires_at, published: row.published };
  },

  async ownerOf(listingId) {
    const { rows } = await db.query<{ provider_id: string; user_id: string }>(
      `SELECT l.provider_id, p.user_id FROM listings l JOIN provider_profiles p ON p.id = l.provider_id WHERE l.id = $1`,
      [listingId],
    );
    const row = rows[0];

    return row ? { providerId: row.provider_id, userId: row.user_id } : null;
  },
});

// ─── idempotency ─────────────────────────────────────────────────────────────

export const createIdempotencyStore = (db: SqlExecutor): IdempotencyStore => ({
  async find(scope, route, key, now) {
    const { rows } = await db.query<{
      fingerprint: string;
      response_status: number;
      response_body: unknown;
      encrypted_secret: string | null;
      created_at: Date;
      expires_at: Date;
    }>(
      `SELECT fingerprint, response_status, response_body, encrypted_secret, created_at, expires_at
         FROM idempotency_keys WHERE scope = $1 AND route = $2 AND key = $3 AND expires_at > $4`,
      [scope, route, key, now],
      "idempotency_find",
    );
    const row = rows[0];

    return row
      ? {
          scope,
          route,
          key,
          fingerprint: row.fingerprint,
          response: {
            status: row.response_status,
            body: row.response_body,
            ...(row.encrypted_secret === null ? {} : { secret: row.encrypted_secret }),
          },
          createdAt: row.created_at,
          expiresAt: row.expires_at,
        }
      : null;
  },

  async save(record, now) {
    // A live row with this key makes this a no-op (false); an expired one is replaced.
    const { rows } = await db.query(
      `INSERT INTO idempotency_keys (scope, route, key, fingerprint, response_status, response_body,
                                     encrypted_secret, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)
       ON CONFLICT (scope, route, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, response_status = EXCLUDED.response_status,
              response_body = EXCLUDED.response_body, encrypted_secret = EXCLUDED.encrypted_secret,
              created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= $10
       RETURNING 1`,
      [
        record.scope,
        record.route,
        record.key,
        record.fingerprint,
        record.response.status,
        JSON.stringify(record.response.body ?? null),
        record.response.secret ?? null,
        record.createdAt,
        record.expiresAt,
        now,
      ],
      "idempotency_save",
    );

    return rows.length === 1;
  },
});
