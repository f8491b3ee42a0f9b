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
import { readSignalSql } from "./chat-signals";

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
 * `user` (an SQL expression) is a participant of conversation `c`: the participation rule of
 * chat.policy.ts (isParticipant), in every statement that finds a conversation for a user.
 */
export const participantSql = (user: string) => `${user} IN (c.user_a_id, c.user_b_id)`;

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

export const createConversationRepository = (db: SqlExecutor): ConversationRepository => ({
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

  async listSummariesByParticipant(userId, limit) {
    // Two index-ordered arms (the user as either side of the pair) merged, then one probe per row
    // for the newest message: one statement, no round trip per conversation.
    const { rows } = await db.query<SummaryRow>(
      `WITH mine AS (
         (SELECT c.id FROM conversations c WHERE c.user_a_id = $1
           ORDER BY c.updated_at DESC, c.id DESC LIMIT $2)
         UNION ALL
         (SELECT c.id FROM conversations c WHERE c.user_b_id = $1
           ORDER BY c.updated_at DESC, c.id DESC LIMIT $2)
       )
       SELECT ${summaryColumns("$1::uuid")}
         FROM mine JOIN conversations c ON c.id = mine.id ${lastMessageJoin}
        ORDER BY c.updated_at DESC, c.id DESC
        LIMIT $2`,
      [userId, limit],
      "conversations_list_by_participant",
    );

    return rows.map(toSummary);
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
         SELECT ${readSignalSql("moved")} FROM moved
       )
       SELECT moved.*, (SELECT count(*) FROM signal)::int AS signals FROM moved`,
      [idParam(id), idParam(userId), at],
      "conversations_mark_read",
    );
    const row = rows[0];

    return row
      ? { conversationId: row.id, userId: row.user_id, lastReadSeq: row.last_read_seq, readAt: row.read_at }
      : null;
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
});
