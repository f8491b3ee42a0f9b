import { type PaymentMove, paymentMoves } from "@agora/domain/payments/payment-moves";
import type { PaymentRepository, PaymentWithParties } from "@agora/domain/payments/payments.ports";
import type {
  Payment,
  PaymentMethod,
  PaymentPurpose,
  PaymentStatus,
} from "@agora/domain/payments/payments.types";
import { createFilters, selectPage } from "../../filters";
import type { Payment as PaymentModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type PaymentRow = Omit<RowOf<PaymentModel>, "submitted_at" | "decided_at" | "decided_by">;

const paymentColumns = `id, purpose, order_id, listing_id, payer_id, amount, currency, status, method, version,
  plan_duration_days, evidence_media_asset_id, evidence_note, created_at, updated_at`;

const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  purpose: row.purpose as PaymentPurpose,
  purposeId: (row.purpose === "order" ? row.order_id : row.listing_id) ?? "",
  payerId: row.payer_id,
  amount: Number(row.amount),
  currency: row.currency,
  status: row.status as PaymentStatus,
  method: row.method as PaymentMethod,
  version: row.version,
  planDurationDays: row.plan_duration_days,
  evidenceMediaAssetId: row.evidence_media_asset_id,
  evidenceNote: row.evidence_note,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The compare-and-set of `move`, from the state machine's table (payment-moves.ts paymentMoves): the
 * statuses it may start from, and the one it leads to. Constants of the code, never input.
 */
const moveFrom = (move: PaymentMove) =>
  `status IN (${paymentMoves[move].from.map((status) => `'${status}'`).join(", ")})`;
const moveTo = (move: PaymentMove) => `'${paymentMoves[move].to}'`;

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
      `SELECT pay.id, pay.purpose, pay.order_id, pay.listing_id, pay.payer_id, pay.amount, pay.currency,
              pay.status, pay.method, pay.version, pay.plan_duration_days, pay.evidence_media_asset_id,
              pay.evidence_note, pay.created_at, pay.updated_at, COALESCE(op.user_id, lp.user_id) AS provider_user_id, o.customer_id AS order_customer_id
         FROM payments pay
         LEFT JOIN orders o ON o.id = pay.order_id
         LEFT JOIN provider_profiles op ON op.id = o.provider_id
         LEFT JOIN listings l ON l.id = pay.listing_id
         LEFT JOIN provider_profiles lp ON lp.id = l.provider_id
        WHERE pay.id = $1`,
      [idParam(id)],
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

  async findPage(filter, page) {
    const filters = createFilters();
    if (filter.q !== undefined) {
      // An id names nothing unless it is a UUID: a malformed one matches no payment.
      const id = filters.param(idParam(filter.q));
      filters.where(`(id = ${id} OR order_id = ${id} OR listing_id = ${id} OR payer_id = ${id})`);
    }
    filters.where(filter.status !== undefined && `status = ${filters.param(filter.status)}`);
    const { rows, total } = await selectPage<PaymentRow>(
      db,
      { select: paymentColumns, from: "payments", order: { table: "payments", direction: "DESC" }, filters },
      page,
    );

    return { items: rows.map(toPayment), total };
  },

  async submit(id, expectedVersion, method, at) {
    const { rows } = await db.query<PaymentRow>(
      `UPDATE payments SET status = ${moveTo("submit")}, method = $3, version = version + 1, submitted_at = $4, updated_at = $4
        WHERE id = $1 AND version = $2 AND ${moveFrom("submit")}
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

  async decide(id, move, decidedBy, at) {
    const { rows } = await db.query<PaymentRow>(
      `UPDATE payments SET status = ${moveTo(move)}, version = version + 1, decided_at = $3, decided_by = $2, updated_at = $3
        WHERE id = $1 AND ${moveFrom(move)}
       RETURNING ${paymentColumns}`,
      [id, decidedBy, at],
    );

    return rows[0] ? toPayment(rows[0]) : null;
  },
});
