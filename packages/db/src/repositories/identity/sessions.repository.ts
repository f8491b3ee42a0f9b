import type { Role } from "@agora/domain/common/actor";
import type { SessionRepository } from "@agora/domain/identity/identity.ports";
import type { RefreshToken, Session } from "../../generated/prisma/client";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import {
  type RateLimitHitRow,
  rateLimitHitSql,
  rateLimitResult,
  windowOpenedBefore,
} from "../rate-limits.repository";

type TokenRow = Pick<RowOf<RefreshToken>, "id" | "session_id" | "expires_at" | "rotated_at"> &
  Pick<RowOf<Session>, "user_id" | "revoked_at"> & { session_created_at: Date };

/**
 * A live session of session row `s` and user row `u`: not revoked, and the account active. The
 * one copy of the rule: bearer checks, realtime sockets and the order write use it.
 */
export const liveSession = "s.revoked_at IS NULL AND u.status = 'active'";

export const createSessionRepository = (db: SqlExecutor): SessionRepository => ({
  async create(session) {
    await db.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, $3)", [
      session.id,
      session.userId,
      session.createdAt,
    ]);
  },

  async addRefreshToken(token) {
    await db.query(
      `INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [token.id, token.sessionId, token.tokenHash, token.createdAt, token.expiresAt],
      "refresh_tokens_insert",
    );
  },

  async findRefreshTokenForUpdate(tokenHash) {
    const { rows } = await db.query<TokenRow>(
      `SELECT rt.id, rt.session_id, s.user_id, rt.expires_at, rt.rotated_at, s.revoked_at,
              s.created_at AS session_created_at
         FROM refresh_tokens rt JOIN sessions s ON s.id = rt.session_id
        WHERE rt.token_hash = $1
        FOR UPDATE OF rt`,
      [tokenHash],
      "refresh_tokens_find_for_update",
    );
    const row = rows[0];

    return row
      ? {
          id: row.id,
          sessionId: row.session_id,
          userId: row.user_id,
          expiresAt: row.expires_at,
          rotatedAt: row.rotated_at,
          sessionRevokedAt: row.revoked_at,
          sessionCreatedAt: row.session_created_at,
        }
      : null;
  },

  async markRotated(tokenId, at) {
    await db.query(
      "UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1",
      [tokenId, at],
      "refresh_tokens_rotate",
    );
  },

  async revoke(sessionId, reason, at) {
    await db.query(
      "UPDATE sessions SET revoked_at = $3, revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL",
      [sessionId, reason, at],
    );
  },

  async revokeAllForUser(userId, reason, at) {
    const { rowCount } = await db.query(
      "UPDATE sessions SET revoked_at = $3, revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL",
      [userId, reason, at],
    );

    return rowCount;
  },

  async findActiveActor(sessionId) {
    const { rows } = await db.query<{ id: string; role: string }>(
      `SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND ${liveSession}`,
      [sessionId],
      "sessions_active_actor",
    );
    const row = rows[0];

    return row ? { userId: row.id, role: row.role as Role } : null;
  },

  async findActiveActorCounting(sessionId, userId, count) {
    const { rows } = await db.query<{ id: string; role: string } & Partial<RateLimitHitRow>>(
      `WITH actor AS (
         SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = $1 AND ${liveSession}
       ), hit AS (
         ${rateLimitHitSql({ key: "$3", now: "$4", openedBefore: "$5" }, "actor WHERE actor.id = $2")}
       )
       SELECT actor.id, actor.role, hit.hits, hit.window_started_at FROM actor LEFT JOIN hit ON true`,
      [sessionId, userId, count.key, count.now, windowOpenedBefore(count.now, count.windowSeconds)],
      "sessions_active_actor_counting",
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    const hit =
      row.hits === undefined || row.hits === null || !row.window_started_at
        ? undefined
        : { hits: row.hits, window_started_at: row.window_started_at };

    return {
      userId: row.id,
      role: row.role as Role,
      limit: rateLimitResult(hit, count.limit, count.windowSeconds, count.now),
    };
  },

  async filterActive(sessionIds) {
    if (sessionIds.length === 0) {
      return [];
    }
    const { rows } = await db.query<{ id: string }>(
      `SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = ANY($1::uuid[]) AND ${liveSession}`,
      [sessionIds],
      "sessions_filter_active",
    );

    return rows.map((row) => row.id);
  },
});
