import type { MessageNoticeReader, MessageRepository } from "@agora/domain/chat/chat.ports";
import type { Message, MessageType, SendRefusal } from "@agora/domain/chat/chat.types";
import { messageSent } from "@agora/domain/chat/events/message-sent";
import type { IdGenerator } from "@agora/domain/common/ids";
import type { MediaSignals } from "@agora/domain/media/media.ports";
import type { ChatMessage as ChatMessageModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { notBlockedSql } from "../community/user-blocks.repository";
import { assetFromJson, messageMediaSql } from "../media/media-assets.repository";
import {
  type ChatSignalSink,
  mediaSignalSql,
  messageSignalSql,
  payloadsColumn,
  publishPayloads,
  type SignalDelivery,
  statementName,
} from "./chat-signals";
import { participantSql } from "./conversations.repository";

/** A message as read, with its media (absent from the send statement's row: none yet). */
type MessageRow = RowOf<ChatMessageModel> & { media?: Record<string, unknown>[] };

const messageColumns = `m.id, m.conversation_id, m.seq, m.sender_id, m.body, m.message_type, m.client_message_id,
  m.created_at, m.held_at, ${messageMediaSql("m")} AS media`;

const toMessage = (row: MessageRow): Message => ({
  id: row.id,
  conversationId: row.conversation_id,
  seq: row.seq,
  senderId: row.sender_id,
  body: row.body,
  messageType: row.message_type as MessageType,
  clientMessageId: row.client_message_id,
  createdAt: row.created_at,
  held: row.held_at !== null,
  media: (row.media ?? []).map(assetFromJson),
});

type SendRow = { refusal: SendRefusal | null; effects: number; payloads?: string[] } & {
  [K in keyof MessageRow]: MessageRow[K] | null;
};

/**
 * The send, in one statement (one round trip, atomic on its own), implementing chat's rules
 * (chat.policy.ts) where they must hold under concurrency:
 * - conv: the conversation, if the sender is in it (participation, chat_participant), locked
 *   (sends of one conversation queue here, so seqs are handed out in commit order), with whether
 *   the pair is blocked;
 * - decided: the send rule (the SQL function chat_send_refusal, mirrored by chatSendRefusal) over
 *   those facts: 'not_found' (no such conversation for the sender), 'blocked', or NULL;
 * - msg: the message at last_seq + 1, only when decided is NULL; a client_message_id the sender
 *   already used here conflicts and inserts nothing. A held message ($13: held_at) takes a
 *   negative seq from chat_messages_held_seq instead, outside the conversation's sequence;
 * - moved, event, signal: only for an inserted message that is not held — the conversation's
 *   last_seq, activity and the sender's read marker (sending marks as read: markersAfterSend), the
 *   outbox row, and pg_notify (delivered when this commits), or the signal's payload returned to be
 *   published after the commit (SignalDelivery). A held message moves nothing and tells no one:
 *   its release does (releaseHeldMessageStatement).
 * When nothing is inserted nothing else is written, so seq has no gaps. The statement returns the
 * refusal, which the repository answers as the outcome.
 */
const sendStatement = (delivery: SignalDelivery) => `
WITH conv AS (
  SELECT c.id, c.last_seq, NOT ${notBlockedSql("c.user_a_id", "c.user_b_id")} AS blocked
    FROM conversations c
   WHERE c.id = $1 AND ${participantSql("$2::uuid")}
     FOR UPDATE OF c
), decided AS (
  -- conv holds the conversation only when the sender takes part in it (its block fact otherwise
  -- unread: NULL, which the rule never consults for a stranger).
  SELECT chat_send_refusal(EXISTS (SELECT 1 FROM conv), (SELECT blocked FROM conv)) AS refusal
), msg AS (
  INSERT INTO chat_messages (id, conversation_id, seq, sender_id, body, message_type, client_message_id, created_at,
                             held_at)
  SELECT $3, conv.id,
         CASE WHEN $13::timestamptz IS NULL THEN conv.last_seq + 1 ELSE -nextval('chat_messages_held_seq')::int END,
         $2, $4, $5, $6, $7, $13::timestamptz
    FROM conv, decided WHERE decided.refusal IS NULL
  ON CONFLICT (conversation_id, sender_id, client_message_id) DO NOTHING
  RETURNING id, conversation_id, seq, sender_id, body, message_type, client_message_id, created_at, held_at
), delivered AS (
  SELECT * FROM msg WHERE msg.held_at IS NULL
), moved AS (
  UPDATE conversations c SET
    last_seq = delivered.seq,
    updated_at = delivered.created_at,
    user_a_read_seq = CASE WHEN c.user_a_id = delivered.sender_id THEN delivered.seq ELSE c.user_a_read_seq END,
    user_a_read_at = CASE WHEN c.user_a_id = delivered.sender_id THEN delivered.created_at ELSE c.user_a_read_at END,
    user_b_read_seq = CASE WHEN c.user_b_id = delivered.sender_id THEN delivered.seq ELSE c.user_b_read_seq END,
    user_b_read_at = CASE WHEN c.user_b_id = delivered.sender_id THEN delivered.created_at ELSE c.user_b_read_at END
    FROM delivered
   WHERE c.id = delivered.conversation_id
  RETURNING c.id
), event AS (
  INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at, created_at)
  SELECT $8, $9, $10, $11, $12::jsonb, 0, delivered.created_at, delivered.created_at FROM delivered
  RETURNING id
), signal AS (
  SELECT ${messageSignalSql("delivered", delivery)} AS payload FROM delivered
)
SELECT decided.refusal,
       ((SELECT count(*) FROM moved) + (SELECT count(*) FROM event) + (SELECT count(*) FROM signal))::int AS effects,
       msg.*${payloadsColumn(delivery, "signal")}
  FROM decided LEFT JOIN msg ON true`;

const sendStatements = { notify: sendStatement("notify"), publish: sendStatement("publish") };

/**
 * The release of a held message ($1), in one statement, as a send delivers a new message:
 * - conv: its conversation, locked as sends lock it (so a release and sends queue, and seqs stay
 *   unique and gapless), found only while the message is held;
 * - msg: the message moved to last_seq + 1 with held_at cleared, only if still held (a second
 *   release finds nothing to do);
 * - moved: the conversation's last_seq and activity ($2, the decision's time), and its sender's read
 *   marker when it was at the newest message (their own message is not unread to them; behind it,
 *   the marker stays);
 * - event, signal: `message.sent` ($3: the outbox row's id; chat/events/message-sent.ts: the
 *   recipient's notice and push) and the message signal (the sockets' frames), as a send writes them.
 * Returns a row only when it released the message.
 */
const releaseStatement = (delivery: SignalDelivery) => `
WITH conv AS (
  SELECT c.id, c.last_seq FROM conversations c
   WHERE c.id = (SELECT h.conversation_id FROM chat_messages h WHERE h.id = $1 AND h.held_at IS NOT NULL)
     FOR UPDATE OF c
), msg AS (
  UPDATE chat_messages m SET seq = conv.last_seq + 1, held_at = NULL
    FROM conv
   WHERE m.id = $1 AND m.conversation_id = conv.id AND m.held_at IS NOT NULL
  RETURNING m.id, m.conversation_id, m.seq, m.sender_id
), moved AS (
  UPDATE conversations c SET
    last_seq = msg.seq,
    updated_at = GREATEST(c.updated_at, $2::timestamptz),
    user_a_read_seq = CASE WHEN c.user_a_id = msg.sender_id AND c.user_a_read_seq = c.last_seq
                           THEN msg.seq ELSE c.user_a_read_seq END,
    user_b_read_seq = CASE WHEN c.user_b_id = msg.sender_id AND c.user_b_read_seq = c.last_seq
                           THEN msg.seq ELSE c.user_b_read_seq END
    FROM msg
   WHERE c.id = msg.conversation_id
  RETURNING c.id
), event AS (
  INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at, created_at)
  SELECT $3, '${messageSent.kind}', 'conversation', msg.conversation_id,
         jsonb_build_object('conversation_id', msg.conversation_id, 'message_id', msg.id, 'sender_id', msg.sender_id),
         0, $2::timestamptz, $2::timestamptz
    FROM msg
  RETURNING id
), signal AS (
  SELECT ${messageSignalSql("msg", delivery)} AS payload FROM msg
)
SELECT msg.seq, ((SELECT count(*) FROM moved) + (SELECT count(*) FROM event) + (SELECT count(*) FROM signal))::int
         AS effects${payloadsColumn(delivery, "signal")}
  FROM msg`;

const releaseStatements = { notify: releaseStatement("notify"), publish: releaseStatement("publish") };

/**
 * The messages over `db`. With `signals`, a send's signal is not notified but handed to the sink
 * when the statement returns (`db` autocommits it, or the unit of work hands the sink on at commit).
 */
export const createMessageRepository = (
  db: SqlExecutor,
  ids: IdGenerator,
  signals?: ChatSignalSink,
): MessageRepository => ({
  async send(message, event) {
    const delivery: SignalDelivery = signals ? "publish" : "notify";
    const { rows } = await db.query<SendRow>(
      sendStatements[delivery],
      [
        idParam(message.conversationId),
        message.senderId,
        message.id,
        message.body,
        message.messageType,
        message.clientMessageId,
        message.createdAt,
        ids.next(),
        event.kind,
        event.aggregateType,
        event.aggregateId,
        JSON.stringify(event.payload),
        message.held === true ? message.createdAt : null,
      ],
      statementName("chat_messages_send", delivery),
    );
    const row = rows[0];
    publishPayloads(signals, row?.payloads);
    if (!row) {
      throw new Error("the send statement returned no row");
    }
    if (row.refusal !== null) {
      return { status: row.refusal };
    }
    if (row.id === null) {
      return { status: "duplicate" };
    }

    return { status: "sent", message: toMessage(row as MessageRow) };
  },

  async setMedia(messageId, mediaAssetIds) {
    if (mediaAssetIds.length === 0) {
      return;
    }
    await db.query(
      `INSERT INTO message_media (message_id, position, media_asset_id)
       SELECT $1, ordinality - 1, id FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ordinality)`,
      [messageId, mediaAssetIds],
      "message_media_insert",
    );
  },

  async findByClientMessageId(conversationId, senderId, clientMessageId) {
    const { rows } = await db.query<MessageRow>(
      `SELECT ${messageColumns} FROM chat_messages m
        WHERE m.conversation_id = $1 AND m.sender_id = $2 AND m.client_message_id = $3`,
      [idParam(conversationId), idParam(senderId), clientMessageId],
      "chat_messages_by_client_id",
    );

    return rows[0] ? toMessage(rows[0]) : null;
  },

  async listPage(conversationId, cursor, limit, viewerId) {
    // One row more than the page tells whether the direction goes on. Held messages (seq < 1) are
    // outside every range but the newest page's tail, where the viewer's own are added.
    if ("after" in cursor) {
      const { rows } = await db.query<MessageRow>(
        `SELECT ${messageColumns} FROM chat_messages m
          WHERE m.conversation_id = $1 AND m.seq > GREATEST($2, 0) ORDER BY m.seq LIMIT $3`,
        [idParam(conversationId), cursor.after, limit + 1],
        "chat_messages_after",
      );

      return { messages: rows.slice(0, limit).map(toMessage), hasMore: rows.length > limit };
    }
    const { rows } = await db.query<MessageRow>(
      `SELECT ${messageColumns} FROM chat_messages m
        WHERE m.conversation_id = $1 AND m.seq < $2 AND m.seq >= 1 ORDER BY m.seq DESC LIMIT $3`,
      [idParam(conversationId), "before" in cursor ? cursor.before : 2_147_483_647, limit + 1],
      "chat_messages_before",
    );
    const messages = rows.slice(0, limit).reverse().map(toMessage);
    if ("before" in cursor || viewerId === undefined) {
      return { messages, hasMore: rows.length > limit };
    }
    // The viewer's own held messages, oldest first (their seqs count down), after the newest page.
    const { rows: held } = await db.query<MessageRow>(
      `SELECT ${messageColumns} FROM chat_messages m
        WHERE m.conversation_id = $1 AND m.seq < 1 AND m.sender_id = $2 AND m.held_at IS NOT NULL
        ORDER BY m.seq DESC LIMIT $3`,
      [idParam(conversationId), idParam(viewerId), limit],
      "chat_messages_held_of_sender",
    );

    return { messages: [...messages, ...held.map(toMessage)], hasMore: rows.length > limit };
  },

  async release(messageId, at) {
    const delivery: SignalDelivery = signals ? "publish" : "notify";
    const { rows } = await db.query<{ seq: number; payloads?: string[] }>(
      releaseStatements[delivery],
      [idParam(messageId), at, ids.next()],
      statementName("chat_messages_release", delivery),
    );
    const row = rows[0];
    publishPayloads(signals, row?.payloads);

    return row !== undefined;
  },
});

export const createMessageNoticeReader = (db: SqlExecutor): MessageNoticeReader => ({
  async findNotice(messageId, liveSince) {
    const { rows } = await db.query<{
      conversation_id: string;
      id: string;
      seq: number;
      sender_name: string;
      recipient_id: string;
      recipient_connected: boolean;
      recipient_unread: number;
    }>(
      `SELECT m.conversation_id, m.id, m.seq, r.recipient_id,
              c.last_seq - CASE WHEN c.user_a_id = r.recipient_id THEN c.user_a_read_seq ELSE c.user_b_read_seq END
                AS recipient_unread,
              COALESCE(NULLIF(u.display_name, ''), u.username::text) AS sender_name,
              EXISTS (SELECT 1 FROM chat_connections k
                       WHERE k.conversation_id = m.conversation_id AND k.user_id = r.recipient_id
                         AND k.seen_at >= $2) AS recipient_connected
         FROM chat_messages m
         JOIN conversations c ON c.id = m.conversation_id
         JOIN users u ON u.id = m.sender_id
         CROSS JOIN LATERAL (SELECT CASE WHEN c.user_a_id = m.sender_id THEN c.user_b_id ELSE c.user_a_id END
                               AS recipient_id) r
        WHERE m.id = $1
          -- A recipient who mutes the sender gets no notice (the message itself still arrives).
          AND NOT EXISTS (SELECT 1 FROM user_mutes mu WHERE mu.muter_id = r.recipient_id AND mu.muted_id = m.sender_id)`,
      [idParam(messageId), liveSince],
      "chat_messages_notice",
    );
    const row = rows[0];

    return row
      ? {
          conversationId: row.conversation_id,
          messageId: row.id,
          seq: row.seq,
          senderName: row.sender_name,
          recipientId: row.recipient_id,
          recipientConnected: row.recipient_connected,
          recipientUnread: row.recipient_unread,
        }
      : null;
  },
});

/**
 * The media signals of chat (MediaSignals): when an asset's processing ended, one media signal per
 * message holding it (one at most: an asset goes on one record), so the conversation's open
 * sockets are sent the message again. Run after the outcome committed, in a statement of its own:
 * its snapshot sees a message whose send committed while the outcome waited for the asset's lock.
 */
export const createMessageMediaSignals = (db: SqlExecutor, signals?: ChatSignalSink): MediaSignals => ({
  async processed(assetId) {
    const delivery: SignalDelivery = signals ? "publish" : "notify";
    const { rows } = await db.query<{ payload: string }>(
      `SELECT ${mediaSignalSql("m", delivery)} AS payload FROM message_media mm
         JOIN chat_messages m ON m.id = mm.message_id
        -- A held message is its sender's only (outside the sequence): sockets never had it.
        WHERE mm.media_asset_id = $1 AND m.held_at IS NULL`,
      [idParam(assetId)],
      statementName("message_media_signal", delivery),
    );
    publishPayloads(
      signals,
      rows.map((row) => row.payload),
    );
  },
});
