import { type Housekeeper, OUTBOX_RETENTION_MS } from "@agora/domain/common/housekeeping";
import type { Sql } from "../sql";
import { createUserRepository } from "./identity/users.repository";

/** Rows removed per kind and purge: bounded, so a purge never holds locks for long. */
const BATCH = 5_000;

/** Expired registrations removed per purge: each is its own short transaction. */
const PENDING_BATCH = 500;

export type HousekeeperOptions = {
  /** A registration never verified is removed this long after it was made (PENDING_ACCOUNT_TTL_SECONDS). */
  pendingAccountTtlSeconds: number;
};

export const createHousekeeper = (sql: Sql, options: HousekeeperOptions): Housekeeper => ({
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
      ...(await purgePendingAccounts(sql, new Date(now.getTime() - options.pendingAccountTtlSeconds * 1000))),
    };
  },

  async expireOrphanMedia(cutoff, limit) {
    // Expiring takes the rows out of reach of any attach (it requires `uploaded`, locked, with
    // attached_at NULL): of an attach and the expiry racing for a row, the first to commit wins.
    await sql.query(
      `UPDATE media_assets SET status = 'expired'
        WHERE id IN (SELECT id FROM media_assets
                      WHERE attached_at IS NULL AND status <> 'expired' AND created_at < $1
                      ORDER BY created_at LIMIT $2)
          AND attached_at IS NULL`,
      [cutoff, limit],
    );
    const { rows } = await sql.query<{ id: string; object_key: string }>(
      `SELECT id, object_key FROM media_assets WHERE attached_at IS NULL AND status = 'expired'
        ORDER BY created_at LIMIT $1`,
      [limit],
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

/**
 * Removes registrations never verified and made before `cutoff` (docs/accounts.md), freeing their
 * email and username. Each goes in its own transaction that locks the row first, so an account
 * verified meanwhile stays; one that something unexpected still refers to stays too (its delete
 * fails alone, and is tried again next purge).
 */
const purgePendingAccounts = async (
  sql: Sql,
  cutoff: Date,
): Promise<{ pending_accounts: number; pending_accounts_failed: number }> => {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM users WHERE status = 'pending_verification' AND created_at < $1
      ORDER BY created_at LIMIT ${PENDING_BATCH}`,
    [cutoff],
  );
  let removed = 0;
  let failed = 0;
  for (const { id } of rows) {
    try {
      removed += (await sql.transaction((tx) => createUserRepository(tx).deletePending(id, cutoff))) ? 1 : 0;
    } catch {
      failed += 1;
    }
  }

  return { pending_accounts: removed, pending_accounts_failed: failed };
};
