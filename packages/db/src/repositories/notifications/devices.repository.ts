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
