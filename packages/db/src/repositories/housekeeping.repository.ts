import { type Housekeeper, OUTBOX_RETENTION_MS } from "@agora/domain/shared/housekeeping";
import type { Sql } from "../sql";

/** Rows removed per kind and purge: bounded, so a purge never holds locks for long. */
const BATCH = 5_000;

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
});
