import type {
  NewNotification,
  NotificationRepository,
} from "@agora/domain/notifications/notifications.ports";
import type { Notification } from "@agora/domain/notifications/notifications.types";
import type { Notification as NotificationModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type NotificationRow = RowOf<NotificationModel> & { unread_count: number };

/**
 * The columns of an inbox row `n` as its owner sees it. A chat notice (conversation_id set) reads
 * its state from its conversation `cm` (conversationStateJoin): unread while the conversation has
 * unread messages for the owner, with that many as its count (chat.policy.ts unreadCount), read
 * at the owner's marker time otherwise. Any other notice: its read_at, and a count of 1 or 0.
 */
const notificationColumns = `n.id, n.user_id, n.event_id, n.kind, n.title, n.body, n.data, n.pushed_at,
  n.created_at, n.conversation_id,
  CASE WHEN n.conversation_id IS NULL THEN n.read_at
       WHEN COALESCE(cm.unread, 0) > 0 THEN NULL
       ELSE COALESCE(cm.read_at, n.created_at) END AS read_at,
  CASE WHEN n.conversation_id IS NULL THEN CASE WHEN n.read_at IS NULL THEN 1 ELSE 0 END
       ELSE GREATEST(COALESCE(cm.unread, 0), 0) END AS unread_count`;

/** The owner's read marker of a chat notice's conversation (nothing for other notices). */
const conversationStateJoin = `LEFT JOIN LATERAL (
    SELECT c.last_seq - CASE WHEN c.user_a_id = n.user_id THEN c.user_a_read_seq ELSE c.user_b_read_seq END AS unread,
           CASE WHEN c.user_a_id = n.user_id THEN c.user_a_read_at ELSE c.user_b_read_at END AS read_at
      FROM conversations c WHERE c.id = n.conversation_id) cm ON true`;

/**
 * A row's position in the inbox order, as a cursor: its raised time in microseconds since the
 * epoch (exact: extract() is numeric) and its id. A position, not a row: a chat notice that moves
 * to the top does not move the pages after it.
 */
const positionSql = "((extract(epoch FROM n.created_at) * 1000000)::bigint)::text || '_' || n.id::text";

/** A cursor made by positionSql, as its two parameters; undefined when it is not one. */
const parsePosition = (cursor: string): [string, string] | undefined => {
  const match = /^(\d{1,18})_([0-9a-f-]{36})$/i.exec(cursor);
  const id = match?.[2] === undefined ? null : idParam(match[2]);

  return match?.[1] === undefined || id === null ? undefined : [match[1], id];
};

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  userId: row.user_id,
  eventId: row.event_id,
  kind: row.kind,
  title: row.title,
  body: row.body,
  data: (row.data ?? {}) as Record<string, unknown>,
  readAt: row.read_at,
  pushedAt: row.pushed_at,
  createdAt: row.created_at,
  conversationId: row.conversation_id,
  unreadCount: row.unread_count,
});

/**
 * Inserts inbox rows in one statement (see NotificationRepository.addMany); resolves the ids of
 * the rows it wrote.
 */
const insertNotifications = async (
  db: SqlExecutor,
  notifications: readonly NewNotification[],
): Promise<Set<string>> => {
  // Through the users table: a recipient that is gone or deleted gets no row (and no FK error
  // that would make the event retry forever).
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, created_at)
     SELECT n.id, u.id, n.event_id, n.kind, n.title, n.body, n.data, n.created_at
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[],
                   $8::timestamptz[]) AS n(id, user_id, event_id, kind, title, body, data, created_at)
       JOIN users u ON u.id = n.user_id AND u.status <> 'deleted'
     ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [
      notifications.map((n) => n.id),
      notifications.map((n) => n.userId),
      notifications.map((n) => n.eventId),
      notifications.map((n) => n.kind),
      notifications.map((n) => n.title),
      notifications.map((n) => n.body),
      notifications.map((n) => JSON.stringify(n.data)),
      notifications.map((n) => n.createdAt),
    ],
    "notifications_add_many",
  );

  return new Set(rows.map((row) => row.id));
};

const countWritten = (notifications: readonly NewNotification[], written: Set<string>) =>
  notifications.filter((n) => written.has(n.id)).length;

type PendingInsert = {
  notifications: readonly NewNotification[];
  resolve: (written: number) => void;
  reject: (error: unknown) => void;
};

/**
 * `addMany` for the outbox worker: the calls made while one turn of the event loop runs (the
 * deliveries of a claimed batch start together) are written by one INSERT, so a batch of events
 * costs one round trip for its inbox rows instead of one per event. Each caller still gets its own
 * count. When the shared statement fails, each call is tried alone, so a failure belongs to the
 * events that cause it (and a database outage fails each, as it would have).
 */
const coalescedInserts = (db: SqlExecutor) => {
  let queue: PendingInsert[] = [];
  const flush = async () => {
    const calls = queue;
    queue = [];
    try {
      const written = await insertNotifications(
        db,
        calls.flatMap((call) => call.notifications),
      );
      for (const call of calls) {
        call.resolve(countWritten(call.notifications, written));
      }
    } catch (error) {
      if (calls.length === 1) {
        calls[0]?.reject(error);

        return;
      }
      await Promise.all(
        calls.map((call) =>
          insertNotifications(db, call.notifications).then(
            (written) => call.resolve(countWritten(call.notifications, written)),
            call.reject,
          ),
        ),
      );
    }
  };

  return (notifications: readonly NewNotification[]) =>
    new Promise<number>((resolve, reject) => {
      if (queue.length === 0) {
        setImmediate(() => void flush());
      }
      queue.push({ notifications, resolve, reject });
    });
};

/**
 * The inbox. `coalesce: true` (the outbox worker's) writes the inbox rows of concurrent `addMany`
 * calls in one statement; otherwise each call is its own statement.
 */
export const createNotificationRepository = (
  db: SqlExecutor,
  { coalesce = false }: { coalesce?: boolean } = {},
): NotificationRepository => {
  const insert = coalesce
    ? coalescedInserts(db)
    : async (notifications: readonly NewNotification[]) =>
        countWritten(notifications, await insertNotifications(db, notifications));

  const findForUser = async (id: string, userId: string): Promise<Notification | null> => {
    const { rows } = await db.query<NotificationRow>(
      `SELECT ${notificationColumns} FROM notifications n ${conversationStateJoin}
        WHERE n.id = $1 AND n.user_id = $2`,
      [idParam(id), idParam(userId)],
      "notifications_find_for_user",
    );
    return rows[0] ? toNotification(rows[0]) : null;
  };

  return {
    async addMany(notifications) {
      if (notifications.length === 0) {
        return 0;
      }

      return insert(notifications);
    },

    async upsertChatNotice(notice) {
      // Through the users table, as addMany. The update only moves forward (a newer seq), so a
      // redelivered or late event leaves the row, and its pushed_at, as they are.
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, conversation_id, created_at)
         SELECT $1, u.id, $3, $4, $5, $6, $7::jsonb, $8, $9
           FROM users u WHERE u.id = $2 AND u.status <> 'deleted'
         ON CONFLICT (id) DO UPDATE SET
           event_id = EXCLUDED.event_id, kind = EXCLUDED.kind, title = EXCLUDED.title, body = EXCLUDED.body,
           data = EXCLUDED.data, created_at = GREATEST(notifications.created_at, EXCLUDED.created_at),
           pushed_at = NULL
          WHERE COALESCE((notifications.data ->> 'seq')::int, 0) < (EXCLUDED.data ->> 'seq')::int
         RETURNING id`,
        [
          notice.id,
          notice.userId,
          notice.eventId,
          notice.kind,
          notice.title,
          notice.body,
          JSON.stringify({ ...notice.data, seq: notice.seq }),
          notice.conversationId,
          notice.createdAt,
        ],
        "notifications_upsert_chat_notice",
      );
      return rows.length > 0;
    },

    async findUnpushed(ids) {
      if (ids.length === 0) {
        return [];
      }
      const { rows } = await db.query<NotificationRow>(
        `SELECT ${notificationColumns} FROM notifications n ${conversationStateJoin}
          WHERE n.id = ANY($1::uuid[]) AND n.pushed_at IS NULL`,
        [ids],
        "notifications_find_unpushed",
      );
      return rows.map(toNotification);
    },

    async markPushed(id, at) {
      await db.query(
        "UPDATE notifications SET pushed_at = $2 WHERE id = $1 AND pushed_at IS NULL",
        [id, at],
        "notifications_mark_pushed",
      );
    },

    async listPage(userId, { before, limit }) {
      const size = Math.trunc(limit);
      const position = before === undefined ? undefined : parsePosition(before);
      if (before !== undefined && position === undefined) {
        return { items: [], nextBefore: null };
      }
      // Newest first through notifications(user_id, created_at DESC, id DESC); after a cursor, from
      // its position (an index condition). The limit is written into the statement (see feedStatement).
      const { rows } = await db.query<NotificationRow & { position: string }>(
        `SELECT ${notificationColumns}, ${positionSql} AS position
           FROM notifications n ${conversationStateJoin}
          WHERE n.user_id = $1
            ${position ? "AND (n.created_at, n.id) < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::uuid)" : ""}
          ORDER BY n.created_at DESC, n.id DESC LIMIT ${size}`,
        position ? [idParam(userId), ...position] : [idParam(userId)],
        `notifications_page${position ? "_before" : ""}_${size}`,
      );
      const last = rows.length === size ? rows[rows.length - 1] : undefined;

      return { items: rows.map(toNotification), nextBefore: last?.position ?? null };
    },

    findForUser,

    async countUnread(userId) {
      // Three index-only counts: notifications_unread_idx and conversations_unread_{a,b}_idx
      // (migration 20261207000100_inbox_indexes). The conversations' part is chat.policy.ts
      // unreadCount summed: last_seq − the user's marker, over the conversations where it is > 0.
      const { rows } = await db.query<{ n: number }>(
        `SELECT ((SELECT count(*) FROM notifications
                   WHERE user_id = $1 AND read_at IS NULL AND conversation_id IS NULL)
               + COALESCE((SELECT sum(last_seq - user_a_read_seq) FROM conversations
                            WHERE user_a_id = $1 AND last_seq > user_a_read_seq), 0)
               + COALESCE((SELECT sum(last_seq - user_b_read_seq) FROM conversations
                            WHERE user_b_id = $1 AND last_seq > user_b_read_seq), 0))::int AS n`,
        [idParam(userId)],
        "notifications_count_unread",
      );
      return rows[0]?.n ?? 0;
    },

    async markAllRead(userId, at) {
      const { rows } = await db.query<{ n: number }>(
        `WITH marked AS (
           UPDATE notifications SET read_at = $2
            WHERE user_id = $1 AND read_at IS NULL AND conversation_id IS NULL
           RETURNING 1
         )
         SELECT count(*)::int AS n FROM marked`,
        [idParam(userId), at],
        "notifications_mark_all_read",
      );
      return rows[0]?.n ?? 0;
    },

    async deleteForUser(userId) {
      await db.query("DELETE FROM notifications WHERE user_id = $1", [userId]);
    },

    async markRead(id, userId, at) {
      // A chat notice is left as it is (its state is its conversation's); either way the row is
      // answered as it now is.
      await db.query(
        `UPDATE notifications SET read_at = COALESCE(read_at, $3::timestamptz)
          WHERE id = $1 AND user_id = $2 AND conversation_id IS NULL`,
        [idParam(id), idParam(userId), at],
        "notifications_mark_read",
      );
      return findForUser(id, userId);
    },
  };
};
