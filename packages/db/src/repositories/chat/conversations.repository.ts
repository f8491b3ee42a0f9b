import type { ConversationRepository } from "@agora/domain/chat/chat.ports";
import type {
  Conversation,
  ConversationSummary,
  MessageType,
  ReadMarker,
} from "@agora/domain/chat/chat.types";
import type { Conversation as ConversationModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { assetFromJson, messageMediaSql } from "../media/media-assets.repository";
import {
  type ChatSignalSink,
  payloadsColumn,
  publishPayloads,
  readSignalSql,
  type SignalDelivery,
  statementName,
} from "./chat-signals";

type ConversationRow = Pick<
  RowOf<ConversationModel>,
  "id" | "user_a_id" | "user_b_id" | "last_seq" | "created_at" | "updated_at"
>;

/** A conversation with the viewer's unread count and the newest message (m_* columns, or nulls). */
type SummaryRow = ConversationRow & {
  unread_count: number;
  m_id: string | null;
  m_seq: number | null;
  m_sender_id: string | null;
  m_body: string | null;
  m_message_type: string | null;
  m_client_message_id: string | null;
  m_created_at: Date | null;
  m_media: Record<string, unknown>[];
};

const conversationColumns = "c.id, c.user_a_id, c.user_b_id, c.last_seq, c.created_at, c.updated_at";

/**
 * `user` (an SQL expression) is a participant of conversation `c`: the participation rule, the SQL
 * function chat_participant (mirrored by chatParticipant, chat.policy.ts), in every statement that
 * finds a conversation for a user.
 */
export const participantSql = (user: string) => `chat_participant(${user}, c.user_a_id, c.user_b_id)`;

/**
 * `viewer` is the SQL expression of the viewing user. Unread = last_seq − the viewer's marker
 * (chat.policy.ts unreadCount): a send moves its sender's marker to the message (sending marks as
 * read), so every message after a marker is the other's.
 */
const summaryColumns = (viewer: string) => `${conversationColumns},
  c.last_seq - CASE WHEN c.user_a_id = ${viewer} THEN c.user_a_read_seq ELSE c.user_b_read_seq END AS unread_count,
  m.id AS m_id, m.seq AS m_seq, m.sender_id AS m_sender_id, m.body AS m_body,
  m.message_type AS m_message_type, m.client_message_id AS m_client_message_id, m.created_at AS m_created_at,
  ${messageMediaSql("m")} AS m_media`;

/** The newest message of each conversation: one primary-key-like probe of (conversation_id, seq). */
const lastMessageJoin = "LEFT JOIN chat_messages m ON m.conversation_id = c.id AND m.seq = c.last_seq";

const toConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  participantIds: [row.user_a_id, row.user_b_id],
  lastSeq: row.last_seq,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toSummary = (row: SummaryRow): ConversationSummary => ({
  ...toConversation(row),
  unreadCount: row.unread_count,
  lastMessage:
    row.m_id === null || row.m_seq === null || row.m_sender_id === null || row.m_created_at === null
      ? null
      : {
          id: row.m_id,
          conversationId: row.id,
          seq: row.m_seq,
          senderId: row.m_sender_id,
          body: row.m_body ?? "",
          messageType: (row.m_message_type ?? "text") as MessageType,
          clientMessageId: row.m_client_message_id,
          createdAt: row.m_created_at,
          // The message at last_seq: in the sequence, so never held (a held one has no seq there).
          held: false,
          media: row.m_media.map(assetFromJson),
        },
});

type MarkersRow = Pick<
  RowOf<ConversationModel>,
  | "id"
  | "user_a_id"
  | "user_a_read_seq"
  | "user_a_read_at"
  | "user_b_id"
  | "user_b_read_seq"
  | "user_b_read_at"
>;

/**
 * Microseconds since the epoch of a timestamptz expression, as text (exact: extract() is numeric),
 * and back: the cursor's positions keep PostgreSQL's precision.
 */
const microsSql = (at: string) => `((extract(epoch FROM ${at}) * 1000000)::bigint)::text`;
const fromMicrosSql = (param: string) =>
  `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;

/**
 * A walk's cursor: when the walk started (the newest activity on its first page), the position
 * after which the next page starts (activity as of that start, id).
 */
type WalkCursor = { start: string; key: string; id: string };

const parseWalkCursor = (cursor: string): WalkCursor | undefined => {
  const match = /^(\d{1,18})_(\d{1,18})_([0-9a-f-]{36})$/i.exec(cursor);
  const [, start, key, rawId] = match ?? [];
  const id = rawId === undefined ? null : idParam(rawId);

  return start === undefined || key === undefined || id === null ? undefined : { start, key, id };
};

/**
 * The first page: two index-ordered arms (the user as either side of the pair) merged, then one
 * probe per row for the newest message. The walk starts at its first row's activity.
 */
const firstPageSql = (limit: number) => `
  WITH mine AS (
    (SELECT c.id FROM conversations c WHERE c.user_a_id = $1 ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit})
    UNION ALL
    (SELECT c.id FROM conversations c WHERE c.user_b_id = $1 ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit})
  )
  SELECT ${summaryColumns("$1::uuid")}, ${microsSql("c.updated_at")} AS walk_key,
         ${microsSql("max(c.updated_at) OVER ()")} AS walk_start
    FROM mine JOIN conversations c ON c.id = mine.id ${lastMessageJoin}
   ORDER BY c.updated_at DESC, c.id DESC
   LIMIT ${limit}`;

/**
 * A later page of a walk that started at $2 ($3, $4: the position after which it goes on). Each
 * conversation has the place it had when the walk started, so none is listed twice or skipped:
 * - untouched since ($2 or earlier): their activity, as the first page ordered them; the same
 *   two index-ordered arms, from the position on;
 * - active since: the activity they had at $2 (their newest message then, or their creation):
 *   few rows (the conversations that moved during the walk), one index probe each;
 * - created since: left out (the next first page shows them).
 */
const nextPageSql = (limit: number) => `
  WITH mine AS (
    (SELECT c.id, c.updated_at AS k FROM conversations c
      WHERE c.user_a_id = $1 AND c.updated_at <= ${fromMicrosSql("$2")}
        AND (c.updated_at, c.id) < (${fromMicrosSql("$3")}, $4::uuid)
      ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit})
    UNION ALL
    (SELECT c.id, c.updated_at AS k FROM conversations c
      WHERE c.user_b_id = $1 AND c.updated_at <= ${fromMicrosSql("$2")}
        AND (c.updated_at, c.id) < (${fromMicrosSql("$3")}, $4::uuid)
      ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit})
    UNION ALL
    SELECT c.id, COALESCE((SELECT m.created_at FROM chat_messages m
                            WHERE m.conversation_id = c.id AND m.created_at <= ${fromMicrosSql("$2")}
                            ORDER BY m.seq DESC LIMIT 1), c.created_at) AS k
      FROM conversations c
     WHERE (c.user_a_id = $1 OR c.user_b_id = $1)
       AND c.updated_at > ${fromMicrosSql("$2")} AND c.created_at <= ${fromMicrosSql("$2")}
  ), page AS (
    SELECT id, k FROM mine WHERE (k, id) < (${fromMicrosSql("$3")}, $4::uuid)
     ORDER BY k DESC, id DESC LIMIT ${limit}
  )
  SELECT ${summaryColumns("$1::uuid")}, ${microsSql("page.k")} AS walk_key, ($2::bigint)::text AS walk_start
    FROM page JOIN conversations c ON c.id = page.id ${lastMessageJoin}
   ORDER BY page.k DESC, page.id DESC`;

/**
 * The conversations over `db`. With `signals`, read markers' signals are not notified but handed to
 * the sink when their statement returns (see createMessageRepository).
 */
export const createConversationRepository = (
  db: SqlExecutor,
  signals?: ChatSignalSink,
): ConversationRepository => {
  const delivery: SignalDelivery = signals ? "publish" : "notify";

  return {
    async insertPair({ id, userAId, userBId, at }) {
      // A concurrent insert of the same pair waits for the first and then does nothing.
      await db.query(
        `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT (user_a_id, user_b_id) DO NOTHING`,
        [id, userAId, userBId, at],
        "conversations_insert_pair",
      );
    },

    async findSummaryByPair(userAId, userBId, viewerId) {
      const { rows } = await db.query<SummaryRow>(
        `SELECT ${summaryColumns("$3::uuid")} FROM conversations c ${lastMessageJoin}
        WHERE c.user_a_id = $1 AND c.user_b_id = $2`,
        [userAId, userBId, viewerId],
        "conversations_summary_by_pair",
      );

      return rows[0] ? toSummary(rows[0]) : null;
    },

    async listSummariesPage(userId, { before, limit }) {
      const size = Math.trunc(limit);
      const cursor = before === undefined ? undefined : parseWalkCursor(before);
      if (before !== undefined && cursor === undefined) {
        return { items: [], nextBefore: null };
      }
      const { rows } = await db.query<SummaryRow & { walk_key: string; walk_start: string }>(
        cursor === undefined ? firstPageSql(size) : nextPageSql(size),
        cursor === undefined ? [idParam(userId)] : [idParam(userId), cursor.start, cursor.key, cursor.id],
        cursor === undefined ? `conversations_page_${size}` : `conversations_page_after_${size}`,
      );
      const last = rows.length === size ? rows[rows.length - 1] : undefined;

      return {
        items: rows.map(toSummary),
        nextBefore: last ? `${last.walk_start}_${last.walk_key}_${last.id}` : null,
      };
    },

    async findForParticipant(id, userId) {
      const { rows } = await db.query<ConversationRow>(
        `SELECT ${conversationColumns} FROM conversations c
        WHERE c.id = $1 AND ${participantSql("$2::uuid")}`,
        [idParam(id), idParam(userId)],
        "conversations_for_participant",
      );

      return rows[0] ? toConversation(rows[0]) : null;
    },

    async markRead(id, userId, at) {
      // Reading (chat.policy.ts markerAfterRead), participants only: last_seq never decreases and
      // read_at moves by GREATEST, so the marker only moves forward.
      const { rows } = await db.query<{
        id: string;
        user_id: string;
        last_read_seq: number;
        read_at: Date | null;
        signals: number;
        payloads?: string[];
      }>(
        `WITH moved AS (
         UPDATE conversations c SET
           user_a_read_seq = CASE WHEN c.user_a_id = $2 THEN c.last_seq ELSE c.user_a_read_seq END,
           user_a_read_at = CASE WHEN c.user_a_id = $2 THEN GREATEST(c.user_a_read_at, $3) ELSE c.user_a_read_at END,
           user_b_read_seq = CASE WHEN c.user_b_id = $2 THEN c.last_seq ELSE c.user_b_read_seq END,
           user_b_read_at = CASE WHEN c.user_b_id = $2 THEN GREATEST(c.user_b_read_at, $3) ELSE c.user_b_read_at END
          WHERE c.id = $1 AND ${participantSql("$2::uuid")}
         RETURNING c.id, $2::uuid AS user_id,
                   CASE WHEN c.user_a_id = $2 THEN c.user_a_read_seq ELSE c.user_b_read_seq END AS last_read_seq,
                   CASE WHEN c.user_a_id = $2 THEN c.user_a_read_at ELSE c.user_b_read_at END AS read_at
       ), signal AS (
         SELECT ${readSignalSql("moved", delivery)} AS payload FROM moved
       )
       SELECT moved.*, (SELECT count(*) FROM signal)::int AS signals${payloadsColumn(delivery, "signal")} FROM moved`,
        [idParam(id), idParam(userId), at],
        statementName("conversations_mark_read", delivery),
      );
      const row = rows[0];
      publishPayloads(signals, row?.payloads);

      return row
        ? { conversationId: row.id, userId: row.user_id, lastReadSeq: row.last_read_seq, readAt: row.read_at }
        : null;
    },

    async markAllRead(userId, at) {
      // markRead of each conversation where the user has unread messages (the partial indexes
      // conversations_unread_{a,b}_idx find them), each signalled as markRead signals.
      const { rows } = await db.query<{ moved: number; signals: number; payloads?: string[] }>(
        `WITH moved AS (
         UPDATE conversations c SET
           user_a_read_seq = CASE WHEN c.user_a_id = $1 THEN c.last_seq ELSE c.user_a_read_seq END,
           user_a_read_at = CASE WHEN c.user_a_id = $1 THEN GREATEST(c.user_a_read_at, $2) ELSE c.user_a_read_at END,
           user_b_read_seq = CASE WHEN c.user_b_id = $1 THEN c.last_seq ELSE c.user_b_read_seq END,
           user_b_read_at = CASE WHEN c.user_b_id = $1 THEN GREATEST(c.user_b_read_at, $2) ELSE c.user_b_read_at END
          WHERE (c.user_a_id = $1 AND c.last_seq > c.user_a_read_seq)
             OR (c.user_b_id = $1 AND c.last_seq > c.user_b_read_seq)
         RETURNING c.id, $1::uuid AS user_id,
                   CASE WHEN c.user_a_id = $1 THEN c.user_a_read_seq ELSE c.user_b_read_seq END AS last_read_seq,
                   CASE WHEN c.user_a_id = $1 THEN c.user_a_read_at ELSE c.user_b_read_at END AS read_at
       ), signal AS (
         SELECT ${readSignalSql("moved", delivery)} AS payload FROM moved
       )
       SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM signal)::int AS signals${payloadsColumn(delivery, "signal")}`,
        [idParam(userId), at],
        statementName("conversations_mark_all_read", delivery),
      );
      publishPayloads(signals, rows[0]?.payloads);

      return rows[0]?.moved ?? 0;
    },

    async findReadMarkers(ids) {
      if (ids.length === 0) {
        return [];
      }
      const { rows } = await db.query<MarkersRow>(
        `SELECT id, user_a_id, user_a_read_seq, user_a_read_at, user_b_id, user_b_read_seq, user_b_read_at
         FROM conversations WHERE id = ANY($1::uuid[])`,
        [ids],
        "conversations_read_markers",
      );

      return rows.flatMap((row): ReadMarker[] => [
        {
          conversationId: row.id,
          userId: row.user_a_id,
          lastReadSeq: row.user_a_read_seq,
          readAt: row.user_a_read_at,
        },
        {
          conversationId: row.id,
          userId: row.user_b_id,
          lastReadSeq: row.user_b_read_seq,
          readAt: row.user_b_read_at,
        },
      ]);
    },
  };
};
