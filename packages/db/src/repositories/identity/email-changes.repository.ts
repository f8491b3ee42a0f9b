import type { EmailChangeRepository } from "@agora/domain/identity/identity.ports";
import type { EmailChangeUndo as UndoModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type UndoRow = Pick<
  RowOf<UndoModel>,
  "id" | "user_id" | "old_email" | "new_email" | "expires_at" | "used_at"
>;

/** email_changes (one pending change per account) and email_change_undos (migration 20261211000200). */
export const createEmailChangeRepository = (db: SqlExecutor): EmailChangeRepository => ({
  async putPending(userId, newEmail, at) {
    await db.query(
      `INSERT INTO email_changes (user_id, new_email, requested_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET new_email = EXCLUDED.new_email, requested_at = EXCLUDED.requested_at`,
      [idParam(userId), newEmail, at],
    );
  },

  async findPendingForUpdate(userId) {
    const { rows } = await db.query<{ new_email: string; requested_at: Date }>(
      "SELECT new_email, requested_at FROM email_changes WHERE user_id = $1 FOR UPDATE",
      [idParam(userId)],
    );
    const row = rows[0];

    return row ? { newEmail: row.new_email, requestedAt: row.requested_at } : null;
  },

  async deletePending(userId) {
    await db.query("DELETE FROM email_changes WHERE user_id = $1", [idParam(userId)]);
  },

  async reservedBy(email, at) {
    const { rows } = await db.query<{ user_id: string }>(
      `SELECT user_id FROM email_change_undos
        WHERE old_email = $1 AND used_at IS NULL AND expires_at > $2
        ORDER BY created_at DESC LIMIT 1`,
      [email, at],
    );

    return rows[0]?.user_id ?? null;
  },

  async createUndo(undo) {
    await db.query(
      `INSERT INTO email_change_undos (id, user_id, token_hash, old_email, new_email, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [undo.id, undo.userId, undo.tokenHash, undo.oldEmail, undo.newEmail, undo.createdAt, undo.expiresAt],
    );
  },

  async findUndoForUpdate(tokenHash) {
    const { rows } = await db.query<UndoRow>(
      `SELECT id, user_id, old_email, new_email, expires_at, used_at FROM email_change_undos
        WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    const row = rows[0];

    return row
      ? {
          id: row.id,
          userId: row.user_id,
          oldEmail: row.old_email,
          newEmail: row.new_email,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
        }
      : null;
  },

  async endUndosOf(userId, at) {
    await db.query("UPDATE email_change_undos SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL", [
      userId,
      at,
    ]);
  },
});
