import { uuidV7Ids } from "@agora/domain/common/ids";
import type { DataExport, DataExportStatus, ExportContents } from "@agora/domain/identity/data-export";
import type { DataExportDeliveryStore, DataExportRepository } from "@agora/domain/identity/identity.ports";
import type { DataExport as DataExportModel } from "../../generated/prisma/client";
import type { RowOf } from "../../rows";
import type { Sql, SqlExecutor } from "../../sql";
import { createOutboxWriter } from "../outbox/outbox-events.repository";

type ExportRow = Pick<
  RowOf<DataExportModel>,
  "id" | "user_id" | "status" | "requested_at" | "ready_at" | "expires_at" | "object_key" | "size_bytes"
>;

const columns = "id, user_id, status, requested_at, ready_at, expires_at, object_key, size_bytes";

const toExport = (row: ExportRow): DataExport => ({
  id: row.id,
  userId: row.user_id,
  status: row.status as DataExportStatus,
  requestedAt: row.requested_at,
  readyAt: row.ready_at,
  expiresAt: row.expires_at,
  objectKey: row.object_key,
  sizeBytes: row.size_bytes,
});

const one = (rows: ExportRow[]): DataExport | null => (rows[0] ? toExport(rows[0]) : null);

export const createDataExportRepository = (db: SqlExecutor): DataExportRepository => ({
  async findLatest(userId) {
    // data_exports_user_id_requested_at_idx
    const { rows } = await db.query<ExportRow>(
      `SELECT ${columns} FROM data_exports WHERE user_id = $1 ORDER BY requested_at DESC, id DESC LIMIT 1`,
      [userId],
      "data_exports_latest",
    );

    return one(rows);
  },

  async create(exported) {
    await db.query(
      "INSERT INTO data_exports (id, user_id, status, requested_at) VALUES ($1, $2, 'pending', $3)",
      [exported.id, exported.userId, exported.requestedAt],
      "data_exports_insert",
    );
  },

  async findByTokenHash(tokenHash) {
    const { rows } = await db.query<ExportRow>(
      `SELECT ${columns} FROM data_exports WHERE download_token_hash = $1`,
      [tokenHash],
      "data_exports_by_token",
    );

    return one(rows);
  },

  async closeAllForUser(userId) {
    const { rows } = await db.query<{ object_key: string | null; was: string }>(
      `UPDATE data_exports e
          SET status = CASE WHEN e.status = 'ready' THEN 'expired' ELSE 'failed' END,
              download_token_hash = NULL
         FROM (SELECT id, status FROM data_exports WHERE user_id = $1 AND status IN ('pending', 'ready') FOR UPDATE) old
        WHERE e.id = old.id
        RETURNING e.object_key, old.status AS was`,
      [userId],
      "data_exports_close_for_user",
    );

    return rows
      .filter((row) => row.was === "ready" && row.object_key !== null)
      .map((row) => row.object_key as string);
  },
});

/** Rows of one kind as JSON objects (`to_jsonb` of the select's row: timestamps as ISO text). */
const rowsOf = async (db: SqlExecutor, select: string, params: readonly unknown[], name: string) =>
  (
    await db.query<{ row: Record<string, unknown> }>(
      `SELECT to_jsonb(x) AS row FROM (${select}) x`,
      params,
      name,
    )
  ).rows.map((r) => r.row);

/**
 * The worker's side. `gather` reads each kind with its own bounded statement ($1 the user, $2 the
 * row cap), naming its columns (no secret column is ever read: password, token hashes, sealed
 * guest capabilities).
 */
export const createDataExportDeliveryStore = (sql: Sql): DataExportDeliveryStore => ({
  async findById(id) {
    const { rows } = await sql.query<ExportRow>(
      `SELECT ${columns} FROM data_exports WHERE id = $1`,
      [id],
      "data_exports_by_id",
    );

    return one(rows);
  },

  async gather(userId, rowsPerKind): Promise<ExportContents> {
    const p = [userId, rowsPerKind] as const;
    const [user] = await rowsOf(
      sql,
      `SELECT id, email, username, display_name, locale, role, status, email_verified_at, created_at, updated_at
         FROM users WHERE id = $1 AND $2::int > 0`,
      p,
      "export_user",
    );
    const [provider] = await rowsOf(
      sql,
      `SELECT id, display_name, bio, phone, approval_status, availability, approved_at, created_at, updated_at
         FROM provider_profiles WHERE user_id = $1 AND $2::int > 0`,
      p,
      "export_provider",
    );
    const listings = await rowsOf(
      sql,
      `SELECT l.id, l.category_id, l.name, l.description, l.status, l.subscription_status,
              l.subscription_expires_at, l.featured_until, l.created_at, l.updated_at
         FROM listings l JOIN provider_profiles p ON p.id = l.provider_id
        WHERE p.user_id = $1 ORDER BY l.created_at DESC, l.id DESC LIMIT $2`,
      p,
      "export_listings",
    );
    // As customer, and as provider (the orders placed with the user's provider profile).
    const orders = await rowsOf(
      sql,
      `SELECT o.id, CASE WHEN o.customer_id = $1 THEN 'customer' ELSE 'provider' END AS role,
              o.provider_id, o.listing_id, o.menu_item_id, o.item_name, o.unit_price_amount, o.quantity,
              o.total_amount, o.currency, o.status, o.payment_status,
              CASE WHEN o.customer_id = $1 THEN o.notes END AS notes, o.schedule_at, o.created_at, o.updated_at
         FROM orders o
        WHERE o.customer_id = $1 OR o.provider_id IN (SELECT id FROM provider_profiles WHERE user_id = $1)
        ORDER BY o.created_at DESC, o.id DESC LIMIT $2`,
      p,
      "export_orders",
    );
    // The user's payments (as payer), and those of the orders placed with the user as provider.
    const payments = await rowsOf(
      sql,
      `SELECT pay.id, pay.purpose, pay.order_id, pay.listing_id, pay.payer_id = $1 AS paid_by_me, pay.amount,
              pay.currency, pay.status, pay.method, pay.evidence_media_asset_id, pay.evidence_note,
              pay.submitted_at, pay.decided_at, pay.created_at, pay.updated_at
         FROM payments pay
        WHERE pay.payer_id = $1
           OR pay.order_id IN (SELECT o.id FROM orders o JOIN provider_profiles pp ON pp.id = o.provider_id
                                WHERE pp.user_id = $1)
        ORDER BY pay.created_at DESC, pay.id DESC LIMIT $2`,
      p,
      "export_payments",
    );
    // Sent and received: every message of the conversations the user takes part in.
    const messages = await rowsOf(
      sql,
      `SELECT m.id, m.conversation_id, m.seq, m.sender_id, m.sender_id = $1 AS sent_by_me,
              CASE WHEN c.user_a_id = $1 THEN c.user_b_id ELSE c.user_a_id END AS other_user_id,
              m.body, m.message_type, m.created_at,
              COALESCE((SELECT jsonb_agg(mm.media_asset_id ORDER BY mm.position) FROM message_media mm
                         WHERE mm.message_id = m.id), '[]'::jsonb) AS media_asset_ids
         FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.user_a_id = $1 OR c.user_b_id = $1
        ORDER BY m.created_at DESC, m.id DESC LIMIT $2`,
      p,
      "export_messages",
    );
    const moments = await rowsOf(
      sql,
      `SELECT id, body, visibility, like_count, view_count, comment_count, hidden_at, created_at
         FROM moments WHERE author_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      p,
      "export_moments",
    );
    const comments = await rowsOf(
      sql,
      `SELECT id, moment_id, body, created_at
         FROM moment_comments WHERE author_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      p,
      "export_comments",
    );
    const notifications = await rowsOf(
      sql,
      `SELECT id, kind, title, body, data, read_at, created_at
         FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      p,
      "export_notifications",
    );
    const media = await rowsOf(
      sql,
      `SELECT id, purpose, mime_type, size_bytes, status, visibility, processing, created_at
         FROM media_assets WHERE owner_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      p,
      "export_media",
    );

    return {
      user: user ?? {},
      provider: provider ?? null,
      listings,
      orders,
      payments,
      messages,
      moments,
      comments,
      notifications,
      media,
    };
  },

  async markReady(id, ready, expiry) {
    return sql.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE data_exports
            SET status = 'ready', ready_at = $2, expires_at = $3, object_key = $4, size_bytes = $5,
                download_token_hash = $6
          WHERE id = $1 AND status = 'pending'`,
        [id, ready.readyAt, ready.expiresAt, ready.objectKey, ready.sizeBytes, ready.downloadTokenHash],
        "data_exports_mark_ready",
      );
      if (rowCount === 0) {
        return false;
      }
      // Due when the export expires: the one scheduler (the outbox) ends it.
      await createOutboxWriter(tx, uuidV7Ids).append(expiry, ready.expiresAt);

      return true;
    });
  },

  async setDownloadToken(id, downloadTokenHash) {
    const { rowCount } = await sql.query(
      "UPDATE data_exports SET download_token_hash = $2 WHERE id = $1 AND status = 'ready'",
      [id, downloadTokenHash],
      "data_exports_set_token",
    );

    return rowCount > 0;
  },

  async markFailed(id) {
    await sql.query(
      "UPDATE data_exports SET status = 'failed' WHERE id = $1 AND status = 'pending'",
      [id],
      "data_exports_mark_failed",
    );
  },

  async markExpired(id) {
    await sql.query(
      "UPDATE data_exports SET status = 'expired', download_token_hash = NULL WHERE id = $1 AND status IN ('ready', 'expired')",
      [id],
      "data_exports_mark_expired",
    );
  },
});
