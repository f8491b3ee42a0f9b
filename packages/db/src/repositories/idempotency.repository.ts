import type { IdempotencyRecord, IdempotencyStore, StoredOutcome } from "@agora/domain/common/idempotency";
import type { IdempotencyKey } from "../generated/prisma/client";
import type { RowOf } from "../rows";
import type { SqlExecutor } from "../sql";

type KeyRow = Pick<
  RowOf<IdempotencyKey>,
  "fingerprint" | "outcome" | "sealed_secret" | "created_at" | "expires_at"
>;

/**
 * The values of a key's row, in column order (scope, route, key, fingerprint, outcome, sealed_secret,
 * created_at, expires_at). The sealed secret has its own column, so the outcome's JSON never holds
 * it, even encrypted.
 */
export const keyValues = (record: IdempotencyRecord): unknown[] => {
  const { sealed, ...outcome } =
    record.outcome.type === "result" ? record.outcome : { ...record.outcome, sealed: undefined };

  return [
    record.scope,
    record.route,
    record.key,
    record.fingerprint,
    JSON.stringify(outcome),
    sealed ?? null,
    record.createdAt,
    record.expiresAt,
  ];
};

/**
 * The conflict clause of a key's insert: a live row with this key makes it a no-op (no row
 * returned); an expired one (expired at `now`, a placeholder) is replaced.
 */
export const keyConflict = (now: string) => `ON CONFLICT (scope, route, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, outcome = EXCLUDED.outcome,
              sealed_secret = EXCLUDED.sealed_secret, created_at = EXCLUDED.created_at,
              expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= ${now}`;

export const createIdempotencyStore = (db: SqlExecutor): IdempotencyStore => ({
  async find(scope, route, key, now) {
    const { rows } = await db.query<KeyRow>(
      `SELECT fingerprint, outcome, sealed_secret, created_at, expires_at
         FROM idempotency_keys WHERE scope = $1 AND route = $2 AND key = $3 AND expires_at > $4`,
      [scope, route, key, now],
      "idempotency_find",
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    const outcome = row.outcome as StoredOutcome;

    return {
      scope,
      route,
      key,
      fingerprint: row.fingerprint,
      outcome:
        outcome.type === "result" && row.sealed_secret !== null
          ? { ...outcome, sealed: row.sealed_secret }
          : outcome,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  },

  async save(record, now) {
    const { rows } = await db.query(
      `INSERT INTO idempotency_keys (scope, route, key, fingerprint, outcome, sealed_secret, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)
       ${keyConflict("$9")}
       RETURNING 1`,
      [...keyValues(record), now],
      "idempotency_save",
    );

    return rows.length === 1;
  },

  async complete(record) {
    const [, , , fingerprint, outcome, sealed] = keyValues(record);
    await db.query(
      `UPDATE idempotency_keys SET fingerprint = $4, outcome = $5::jsonb, sealed_secret = $6
        WHERE scope = $1 AND route = $2 AND key = $3`,
      [record.scope, record.route, record.key, fingerprint, outcome, sealed],
      "idempotency_complete",
    );
  },

  async release(scope, route, key) {
    await db.query(
      `DELETE FROM idempotency_keys
        WHERE scope = $1 AND route = $2 AND key = $3 AND outcome->>'type' = 'pending'`,
      [scope, route, key],
      "idempotency_release",
    );
  },
});
