import type {
  DeliveryRepositories,
  DeviceRepository,
  NotificationRepository,
  OutboxWriter,
} from "@agora/domain/delivery/delivery.ports";
import type { Device, DevicePlatform, Notification } from "@agora/domain/delivery/delivery.types";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { SqlExecutor } from "../sql";

type NotificationRow = {
  id: string;
  user_id: string;
  event_id: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  read_at: Date | null;
  pushed_at: Date | null;
  created_at: Date;
};

const notificationColumns = "id, user_id, event_id, kind, title, body, data, read_at, pushed_at, created_at";

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  userId: row.user_id,
  eventId: row.event_id,
  kind: row.kind,
  title: row.title,
  body: row.body,
  data: row.data ?? {},
  readAt: row.read_at,
  pushedAt: row.pushed_at,
  createdAt: row.created_at,
});

type DeviceRow = {
  id: string;
  user_id: string;
  token: string;
  platform: DevicePlatform;
  created_at: Date;
  updated_at: Date;
};

const toDevice = (row: DeviceRow): Device => ({
  id: row.id,
  userId: row.user_id,
  token: row.token,
  platform: row.platform,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const createOutboxWriter = (db: SqlExecutor, ids: IdGenerator): OutboxWriter => ({
  async append(event, at) {
    const id = ids.next();
    await db.query(
      `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, 0, $6, $6)`,
      [id, event.kind, event.aggregateType, event.aggregateId, JSON.stringify(event.payload), at],
      "outbox_events_append",
    );

    return id;
  },
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
      [id, userId, at],
      "notifications_mark_read",
    );

    return rows[0] ? toNotification(rows[0]) : null;
  },
});

export const createDeviceRepository = (db: SqlExecutor): DeviceRepository => ({
  async upsert(device) {
    const { rows } = await db.query<DeviceRow>(
      `INSERT INTO devices (id, user_id, token, platform, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (token) DO UPDATE
          SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, updated_at = EXCLUDED.updated_at
       RETURNING id, user_id, token, platform, created_at, updated_at`,
      [device.id, device.userId, device.token, device.platform, device.at],
      "devices_upsert",
    );
    const row = rows[0];
    if (!row) {
      throw new Error("devices upsert returned no row");
    }

    return toDevice(row);
  },

  async findTokensByUser(userId) {
    const { rows } = await db.query<{ token: string }>(
      "SELECT token FROM devices WHERE user_id = $1 ORDER BY created_at, id",
      [userId],
      "devices_tokens_by_user",
    );

    return rows.map((row) => row.token);
  },

  async deleteByTokens(tokens) {
    if (tokens.length === 0) {
      return 0;
    }
    const { rowCount } = await db.query("DELETE FROM devices WHERE token = ANY($1::text[])", [tokens]);

    return rowCount;
  },
});

/** The delivery repositories over one executor (the pool, or a unit of work's transaction). */
export const createDeliveryRepositories = (db: SqlExecutor, ids: IdGenerator): DeliveryRepositories => ({
  outbox: createOutboxWriter(db, ids),
  notifications: createNotificationRepository(db),
  devices: createDeviceRepository(db),
});
