import { type Housekeeper, OUTBOX_RETENTION_MS } from "@agora/domain/shared/housekeeping";
import type { Sql } from "../sql";

/** Rows removed per kind and purge: bounded, so a purge never holds locks for long. */
const BATCH = 5_000;

/** Orphan media handled per purge: each costs an object-store call. */
const MEDIA_BATCH = 500;

export const createHousekeeper = (sql: Sql): Housekeeper => ({
  async purge(now) {
    const purge = async (table: string, condition: string, params: unknown[]) => {
      const { rowCount } = await sql.query(
        `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${condition} LIMIT ${BATCH})`,
        params,
      );

      return rowCount;
    };
    const day = 24 * 3600_000;

    return {
      outbox_events: await purge("outbox_events", "processed_at < $1", [
        new Date(now.getTime() - OUTBOX_RETENTION_MS),
      ]),
      idempotency_keys: await purge("idempotency_keys", "expires_at <= $1", [now]),
      rate_limits: await purge("rate_limits", "window_started_at < $1", [new Date(now.getTime() - day)]),
      auth_codes: await purge(
        "auth_codes",
        "(consumed_at IS NOT NULL OR expires_at <= $1) AND sent_at < $2",
        [now, new Date(now.getTime() - day)],
      ),
    };
  },

  async expireOrphanMedia(cutoff) {
    // Expiring takes the rows out of reach of any attach (it requires `uploaded`, locked, with
    // attached_at NULL): of an attach and the expiry racing for a row, the first to commit wins.
    await sql.query(
      `UPDATE media_assets SET status = 'expired'
        WHERE id IN (SELECT id FROM media_assets
                      WHERE attached_at IS NULL AND status <> 'expired' AND created_at < $1
                      ORDER BY created_at LIMIT ${MEDIA_BATCH})
          AND attached_at IS NULL`,
      [cutoff],
    );
    const { rows } = await sql.query<{ id: string; object_key: string }>(
      `SELECT id, object_key FROM media_assets WHERE attached_at IS NULL AND status = 'expired'
        ORDER BY created_at LIMIT ${MEDIA_BATCH}`,
    );

    return rows.map((row) => ({ id: row.id, objectKey: row.object_key }));
  },

  async deleteExpiredMedia(ids) {
    const { rowCount } = await sql.query(
      "DELETE FROM media_assets WHERE id = ANY($1::uuid[]) AND status = 'expired' AND attached_at IS NULL",
      [ids],
    );

    return rowCount;
  },
});
