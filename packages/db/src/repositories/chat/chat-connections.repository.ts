import type { ChatConnectionRepository } from "@agora/domain/chat/chat.ports";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";
import { notBlockedSql } from "../community/user-blocks.repository";
import {
  type ChatSignalSink,
  payloadsColumn,
  presenceSignalSql,
  publishPayloads,
  type SignalDelivery,
  statementName,
  typingSignalSql,
} from "./chat-signals";

/**
 * Records `gone`'s users (user_id, at) last active at `at`, never moving back; not a deleted
 * account's (deleting it erased the record, and its sockets close after).
 */
const lastActiveSql = (gone: string) => `
  INSERT INTO chat_presence (user_id, last_active_at)
  SELECT g.user_id, max(g.at) FROM ${gone} g
    JOIN users u ON u.id = g.user_id AND u.status <> 'deleted'
   GROUP BY g.user_id
  ON CONFLICT (user_id) DO UPDATE
    SET last_active_at = GREATEST(chat_presence.last_active_at, EXCLUDED.last_active_at)`;

/** The database's now minus `$1` milliseconds: rows seen before it are stale. */
const staleBeforeSql = "now() - make_interval(secs => $1::int / 1000.0)";

/** Signals the presence of each distinct user of `gone` once (the column `payload`). */
const signalUsersSql = (gone: string, delivery: SignalDelivery) =>
  `SELECT ${presenceSignalSql("u.user_id", delivery)} AS payload FROM (SELECT DISTINCT user_id FROM ${gone}) u`;

type Payloads = { payloads?: string[] };

/**
 * Presence rows of realtime sockets and the presence and typing signals: one autocommitted
 * statement each, on the pool. Each write that can change a user's presence signals it in the same
 * statement, so the signal is heard only once the change committed. With `signals`, the signals
 * are not notified but handed to the sink when their statement returned (it committed).
 */
export const createChatConnectionRepository = (
  db: SqlExecutor,
  signals?: ChatSignalSink,
): ChatConnectionRepository => {
  const delivery: SignalDelivery = signals ? "publish" : "notify";
  const name = (base: string) => statementName(base, delivery);
  /** A statement whose result rows are its signals' (column `payload`, one a row). */
  const signalRows = async (text: string, params: unknown[], statement: string) => {
    const { rows } = await db.query<{ payload: string | null }>(text, params, name(statement));
    if (signals) {
      publishPayloads(
        signals,
        rows.flatMap((row) => (row.payload ? [row.payload] : [])),
      );
    }
  };

  return {
    async add({ id, instanceId, conversationId, userId, at }) {
      await signalRows(
        `WITH added AS (
         INSERT INTO chat_connections (id, instance_id, conversation_id, user_id, connected_at, seen_at)
         VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (id) DO UPDATE SET seen_at = now()
         RETURNING user_id)
       SELECT ${presenceSignalSql("added.user_id", delivery)} AS payload FROM added`,
        [id, instanceId, conversationId, userId, at],
        "chat_connections_add",
      );
    },

    async remove(id) {
      await signalRows(
        `WITH gone AS (DELETE FROM chat_connections WHERE id = $1 RETURNING user_id, now() AS at),
       recorded AS (${lastActiveSql("gone")})
       ${signalUsersSql("gone", delivery)}`,
        [id],
        "chat_connections_remove",
      );
    },

    async touchInstance(instanceId) {
      const { rows } = await db.query<{ id: string }>(
        "UPDATE chat_connections SET seen_at = now() WHERE instance_id = $1 RETURNING id",
        [instanceId],
        "chat_connections_touch",
      );

      return rows.map((row) => row.id);
    },

    async sweepStale(staleAfterMs) {
      // SKIP LOCKED: processes sweeping at once each take rows the others have not.
      const { rows } = await db.query<{ removed: number } & Payloads>(
        `WITH gone AS (
         DELETE FROM chat_connections
          WHERE id IN (SELECT id FROM chat_connections WHERE seen_at < ${staleBeforeSql}
                        FOR UPDATE SKIP LOCKED)
            AND seen_at < ${staleBeforeSql}
          RETURNING user_id, seen_at AS at),
       recorded AS (${lastActiveSql("gone")}),
       signalled AS MATERIALIZED (${signalUsersSql("gone", delivery)})
       SELECT (SELECT count(*) FROM gone)::int AS removed, (SELECT count(*) FROM signalled)::int AS users${payloadsColumn(delivery, "signalled")}`,
        [staleAfterMs],
        name("chat_connections_sweep"),
      );
      publishPayloads(signals, rows[0]?.payloads);

      return rows[0]?.removed ?? 0;
    },

    async removeInstance(instanceId) {
      await signalRows(
        `WITH gone AS (DELETE FROM chat_connections WHERE instance_id = $1 RETURNING user_id, now() AS at),
       recorded AS (${lastActiveSql("gone")})
       ${signalUsersSql("gone", delivery)}`,
        [instanceId],
        "chat_connections_remove_instance",
      );
    },

    async findPresence(userId, viewerIds, staleAfterMs) {
      // Online: a row seen within the window. Last active: the newest of that and the recorded time
      // (GREATEST ignores nulls: null only when neither is there).
      const { rows } = await db.query<{
        online: boolean;
        last_active_at: Date | null;
        viewer_ids: string[];
      }>(
        `SELECT live.at IS NOT NULL AS online,
              GREATEST(live.at, (SELECT p.last_active_at FROM chat_presence p WHERE p.user_id = $1)) AS last_active_at,
              ARRAY(SELECT v.id FROM unnest($2::uuid[]) AS v(id)
                     WHERE ${notBlockedSql("$1::uuid", "v.id")})::text[] AS viewer_ids
         FROM (SELECT max(k.seen_at) AS at FROM chat_connections k
                WHERE k.user_id = $1 AND k.seen_at >= now() - make_interval(secs => $3::int / 1000.0)) live`,
        [idParam(userId), viewerIds.map(idParam).filter((id) => id !== null), staleAfterMs],
        "chat_presence_find",
      );
      const row = rows[0];

      return {
        presence: { userId, online: row?.online === true, lastActiveAt: row?.last_active_at ?? null },
        viewerIds: row?.viewer_ids ?? [],
      };
    },

    async signalTyping(conversationId, userId, peerId) {
      // Nothing is sent across a block, typing included: the send rule (chat_send_refusal) over the
      // facts, the sender a participant (its socket's grant says so) and the pair's blocks.
      await signalRows(
        `SELECT ${typingSignalSql("$1::uuid", "$2::uuid", delivery)} AS payload
          WHERE chat_send_refusal(true, NOT ${notBlockedSql("$2::uuid", "$3::uuid")}) IS NULL`,
        [conversationId, userId, peerId],
        "chat_typing_signal",
      );
    },
  };
};
