import type {
  NewNotification,
  NotificationRepository,
} from "@agora/domain/notifications/notifications.ports";
import type { Notification } from "@agora/domain/notifications/notifications.types";
import type { Notification as NotificationModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type NotificationRow = RowOf<NotificationModel>;

const notificationColumns = "id, user_id, event_id, kind, title, body, data, read_at, pushed_at, created_at";

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

  return {
    async addMany(notifications) {
      if (notifications.length === 0) {
        return 0;
      }

      return insert(notifications);
    },

    async findUnpushed(ids) {
      if (ids.length === 0) {
        return [];
      }
      const { rows } = await db.query<NotificationRow>(
        `SELECT ${notificationColumns} FROM notifications WHERE id = ANY($1::uuid[]) AND pushed_at IS NULL`,
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

    async listByUser(userId, limit) {
      const { rows } = await db.query<NotificationRow>(
        `SELECT ${notificationColumns} FROM notifications
        WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [userId, limit],
        "notifications_list_by_user",
      );

      return rows.map(toNotification);
    },

    async deleteForUser(userId) {
      await db.query("DELETE FROM notifications WHERE user_id = $1", [userId]);
    },

    async markRead(id, userId, at) {
      const { rows } = await db.query<NotificationRow>(
        `UPDATE notifications SET read_at = COALESCE(read_at, $3::timestamptz)
        WHERE id = $1 AND user_id = $2
       RETURNING ${notificationColumns}`,
        [idParam(id), userId, at],
        "notifications_mark_read",
      );

      return rows[0] ? toNotification(rows[0]) : null;
    },
  };
};
