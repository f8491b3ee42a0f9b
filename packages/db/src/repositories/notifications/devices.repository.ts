import type { DeviceRepository } from "@agora/domain/notifications/notifications.ports";
import type { Device, DevicePlatform } from "@agora/domain/notifications/notifications.types";
import type { Device as DeviceModel } from "../../generated/prisma/client";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type DeviceRow = RowOf<DeviceModel>;

const toDevice = (row: DeviceRow): Device => ({
  id: row.id,
  userId: row.user_id,
  token: row.token,
  platform: row.platform as DevicePlatform,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const createDeviceRepository = (db: SqlExecutor): DeviceRepository => ({
  async register(device, { takeOver }) {
    // One statement: the conflict row is locked while the WHERE decides whether it may move.
    const { rows } = await db.query<DeviceRow>(
      `INSERT INTO devices (id, user_id, session_id, token, platform, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (token) DO UPDATE
          SET user_id = EXCLUDED.user_id, session_id = EXCLUDED.session_id,
              platform = EXCLUDED.platform, updated_at = EXCLUDED.updated_at
        WHERE devices.user_id = EXCLUDED.user_id
           OR $7::boolean
           OR (devices.session_id IS NOT NULL AND NOT EXISTS (
                 SELECT 1 FROM sessions s WHERE s.id = devices.session_id AND s.revoked_at IS NULL))
       RETURNING id, user_id, session_id, token, platform, created_at, updated_at`,
      [device.id, device.userId, device.sessionId, device.token, device.platform, device.at, takeOver],
      "devices_register",
    );
    const row = rows[0];

    return row ? toDevice(row) : "held";
  },

  async trimUser(userId, keep) {
    const { rowCount } = await db.query(
      `DELETE FROM devices
        WHERE user_id = $1
          AND id NOT IN (SELECT id FROM devices WHERE user_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2)`,
      [userId, keep],
      "devices_trim_user",
    );

    return rowCount;
  },

  async findTokensByUser(userId) {
    const { rows } = await db.query<{ token: string }>(
      `SELECT d.token FROM devices d LEFT JOIN sessions s ON s.id = d.session_id
        WHERE d.user_id = $1 AND (d.session_id IS NULL OR s.revoked_at IS NULL)
        ORDER BY d.created_at, d.id`,
      [userId],
      "devices_live_tokens_by_user",
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

  async deleteForUser(userId) {
    await db.query("DELETE FROM devices WHERE user_id = $1", [userId]);
  },
});
