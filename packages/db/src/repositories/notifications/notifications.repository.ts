import type { NotificationRepository } from "@agora/domain/notifications/notifications.ports";
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

export const createNotificationRepository = (db: SqlExecutor): NotificationRepository => ({
  async addMany(notifications) {
    if (notifications.length === 0) {
      return 0;
    }
    // Through the users table: a recipient that is gone or deleted gets no row (and no FK error
    // that would make the event retry forever).
    const { rowCount } = await db.query(
      `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, created_at)
       SELECT n.id, u.id, n.event_id, n.kind, n.title, n.body, n.data, n.created_at
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[],
                     $8::timestamptz[]) AS n(id, user_id, event_id, kind, title, body, data, created_at)
         JOIN users u ON u.id = n.user_id AND u.status <> 'deleted'
       ON CONFLICT (id) DO NOTHING`,
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

    return rowCount;
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
});
