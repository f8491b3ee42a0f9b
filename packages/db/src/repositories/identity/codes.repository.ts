import type { CodeRepository } from "@agora/domain/identity/identity.ports";
import type { AuthCode } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type CodeRow = Pick<RowOf<AuthCode>, "code_hash" | "sent_at" | "expires_at" | "attempts" | "consumed_at">;

export const createCodeRepository = (db: SqlExecutor): CodeRepository => ({
  async find(userId, purpose) {
    const { rows } = await db.query<CodeRow>(
      "SELECT code_hash, sent_at, expires_at, attempts, consumed_at FROM auth_codes WHERE user_id = $1 AND purpose = $2",
      [userId, purpose],
    );
    const row = rows[0];

    return row
      ? {
          codeHash: row.code_hash,
          sentAt: row.sent_at,
          expiresAt: row.expires_at,
          attempts: row.attempts,
          consumedAt: row.consumed_at,
        }
      : null;
  },

  async putIfCooledDown(userId, purpose, code, cooldownBoundary) {
    // The account's row is locked first (KEY SHARE, as the foreign key's check would): a removal
    // under way (a pending registration replaced by a newer one) is waited for, and then there is
    // no account to store a code for, instead of a foreign-key violation.
    const { rows } = await db.query<{ account: boolean; stored: boolean }>(
      `WITH account AS (SELECT id FROM users WHERE id = $1 FOR KEY SHARE),
            stored AS (
              INSERT INTO auth_codes (user_id, purpose, code_hash, attempts, sent_at, expires_at, consumed_at)
              SELECT id, $2, $3, 0, $4, $5, NULL FROM account
              ON CONFLICT (user_id, purpose) DO UPDATE
                 SET code_hash = EXCLUDED.code_hash, attempts = 0, sent_at = EXCLUDED.sent_at,
                     expires_at = EXCLUDED.expires_at, consumed_at = NULL
               WHERE auth_codes.sent_at <= $6
              RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM account) AS account, EXISTS (SELECT 1 FROM stored) AS stored`,
      [userId, purpose, code.codeHash, code.sentAt, code.expiresAt, cooldownBoundary],
    );
    const outcome = rows[0];

    return outcome?.stored ? "stored" : outcome?.account ? "cooling_down" : "no_account";
  },

  async discard(userId, purpose, codeHash) {
    await db.query("DELETE FROM auth_codes WHERE user_id = $1 AND purpose = $2 AND code_hash = $3", [
      userId,
      purpose,
      codeHash,
    ]);
  },

  async spend(userId, purpose, maxAttempts) {
    await db.query(
      "UPDATE auth_codes SET attempts = GREATEST(attempts, $3) WHERE user_id = $1 AND purpose = $2",
      [idParam(userId), purpose, maxAttempts],
    );
  },

  async attempt(userId, purpose, codeHash, now, maxAttempts) {
    // One statement under the row lock: a match consumes the code, a miss counts the try.
    const { rows } = await db.query<{ accepted: boolean }>(
      `UPDATE auth_codes
          SET attempts = attempts + CASE WHEN code_hash = $3 THEN 0 ELSE 1 END,
              consumed_at = CASE WHEN code_hash = $3 THEN $4::timestamptz ELSE consumed_at END
        WHERE user_id = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > $4 AND attempts < $5
       RETURNING consumed_at IS NOT NULL AS accepted`,
      [idParam(userId), purpose, codeHash, now, maxAttempts],
    );
    const row = rows[0];
    if (!row) {
      return "none";
    }

    return row.accepted ? "accepted" : "rejected";
  },
});
