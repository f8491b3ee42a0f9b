import type { Role } from "@agora/domain/common/actor";
import type { SessionRepository } from "@agora/domain/identity/identity.ports";
import type { RefreshToken, Session } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import {
  type RateLimitHitRow,
  rateLimitHitSql,
  rateLimitResult,
  windowOpenedBefore,
} from "../rate-limits.repository";

type SessionSummaryRow = Pick<
  RowOf<Session>,
  "id" | "created_at" | "platform" | "user_agent" | "address_hint"
> & { last_used_at: Date };

type TokenRow = Pick<RowOf<RefreshToken>, "id" | "session_id" | "expires_at" | "rotated_at"> &
  Pick<RowOf<Session>, "user_id" | "revoked_at"> & { session_created_at: Date };

/**
 * Session row `s` of user row `u` is live at `at` with the absolute lifetime `maxAgeSeconds` (SQL
 * expressions, placeholders): the database's one statement of the rule, `session_live` (migration
 * 20261210010100_session_live_rule, mirrored by `sessionLive` in the domain's identity policy).
 * PostgreSQL inlines it, so the plans are those of the conditions written out. Bearer checks,
 * realtime sockets and the order's write use it.
 */
export const liveSessionAt = (at: string, maxAgeSeconds: string) =>
  `session_live(s.revoked_at, s.created_at, u.status, ${maxAgeSeconds}, ${at})`;

/**
 * The per-request check ($1 session, $2 now, $3 SESSION_MAX_AGE_SECONDS): the live session's user
 * and current role (also run by the bench's raw reference).
 */
export const activeActorStatement = {
  name: "sessions_active_actor",
  text: `SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = $1 AND ${liveSessionAt("$2", "$3")}`,
};

/**
 * The per-request check of a write-limited route ($1 session, $2 the caller's user id, $3-$5 the
 * hit: key, now, when the window opened before; $6 SESSION_MAX_AGE_SECONDS): the active actor and,
 * only when the session is live at $4 and $2's, one hit of the caller's counter, in one statement.
 */
export const activeActorCountingStatement = {
  name: "sessions_active_actor_counting",
  text: `WITH actor AS (
         SELECT u.id, u.role FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = $1 AND ${liveSessionAt("$4", "$6")}
       ), hit AS (
         ${rateLimitHitSql({ key: "$3", now: "$4", openedBefore: "$5" }, "actor WHERE actor.id = $2")}
       )
       SELECT actor.id, actor.role, hit.hits, hit.window_started_at FROM actor LEFT JOIN hit ON true`,
};

export const createSessionRepository = (db: SqlExecutor): SessionRepository => ({
  async create(session) {
    await db.query(
      `INSERT INTO sessions (id, user_id, created_at, last_used_at, platform, user_agent, address_hint)
       VALUES ($1, $2, $3, $3, $4, $5, $6)`,
      [
        session.id,
        session.userId,
        session.createdAt,
        session.platform ?? null,
        session.userAgent ?? null,
        session.addressHint ?? null,
      ],
      "sessions_insert",
    );
  },

  async listLive(userId, at, maxAgeSeconds, limit) {
    const { rows } = await db.query<SessionSummaryRow>(
      `SELECT s.id, s.created_at, COALESCE(s.last_used_at, s.created_at) AS last_used_at,
              s.platform, s.user_agent, s.address_hint
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.user_id = $1 AND ${liveSessionAt("$2", "$3")}
        ORDER BY COALESCE(s.last_used_at, s.created_at) DESC, s.created_at DESC, s.id DESC
        LIMIT $4`,
      [userId, at, maxAgeSeconds, limit],
      "sessions_list_live",
    );

    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      platform: row.platform,
      userAgent: row.user_agent,
      addressHint: row.address_hint,
    }));
  },

  async endOwn(userId, sessionId, reason, at, maxAgeSeconds) {
    // The session is looked up among the user's only; a live one is revoked, an ended one kept as
    // it is (its revocation's time and reason stay).
    const { rows } = await db.query<{ found: boolean }>(
      `WITH target AS (
         SELECT s.id, ${liveSessionAt("$4", "$5")} AS live
           FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = $2 AND s.user_id = $1
       ), ended AS (
         UPDATE sessions s SET revoked_at = $4, revoke_reason = $3
           FROM target WHERE s.id = target.id AND target.live
         RETURNING s.id
       )
       SELECT EXISTS (SELECT 1 FROM target) AS found, (SELECT count(*) FROM ended) AS ended`,
      [userId, idParam(sessionId), reason, at, maxAgeSeconds],
      "sessions_end_own",
    );

    return rows[0]?.found ?? false;
  },

  async signInHistory(userId, exceptSessionId, since, from) {
    const { rows } = await db.query<{ earlier: boolean; seen: boolean }>(
      `SELECT count(*) > 0 AS earlier,
              coalesce(bool_or(created_at >= $3 AND platform IS NOT DISTINCT FROM $4
                               AND address_hint IS NOT DISTINCT FROM $5), false) AS seen
         FROM sessions WHERE user_id = $1 AND id <> $2`,
      [userId, exceptSessionId, since, from.platform, from.addressHint],
      "sessions_sign_in_history",
    );

    return { earlier: rows[0]?.earlier ?? false, seen: rows[0]?.seen ?? false };
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

  async revokeAllForUser(userId, reason, at, keptSessionId) {
    const { rowCount } = await db.query(
      `UPDATE sessions SET revoked_at = $3, revoke_reason = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND ($4::uuid IS NULL OR id <> $4::uuid)`,
      [userId, reason, at, keptSessionId ?? null],
    );

    return rowCount;
  },

  async findActiveActor(sessionId, at, maxAgeSeconds) {
    const { rows } = await db.query<{ id: string; role: string }>(
      activeActorStatement.text,
      [sessionId, at, maxAgeSeconds],
      activeActorStatement.name,
    );
    const row = rows[0];

    return row ? { userId: row.id, role: row.role as Role } : null;
  },

  async findActiveActorCounting(sessionId, userId, count, maxAgeSeconds) {
    const { rows } = await db.query<{ id: string; role: string } & Partial<RateLimitHitRow>>(
      activeActorCountingStatement.text,
      [
        sessionId,
        userId,
        count.key,
        count.now,
        windowOpenedBefore(count.now, count.windowSeconds),
        maxAgeSeconds,
      ],
      activeActorCountingStatement.name,
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

  async filterActive(sessionIds, at, maxAgeSeconds) {
    if (sessionIds.length === 0) {
      return [];
    }
    const { rows } = await db.query<{ id: string }>(
      `SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = ANY($1::uuid[]) AND ${liveSessionAt("$2", "$3")}`,
      [sessionIds, at, maxAgeSeconds],
      "sessions_filter_active",
    );

    return rows.map((row) => row.id);
  },
});
