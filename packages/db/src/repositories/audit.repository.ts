import type { AuditLog } from "@agora/domain/shared/audit";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { SqlExecutor } from "../sql";

export const createAuditLog = (db: SqlExecutor, ids: IdGenerator): AuditLog => ({
  async record(entry, at) {
    await db.query(
      `INSERT INTO audit_events (id, actor_id, actor_role, action, target_type, target_id, details, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
      [
        ids.next(),
        entry.actor?.userId ?? null,
        entry.actor?.role ?? null,
        entry.action,
        entry.targetType,
        entry.targetId,
        JSON.stringify(entry.details ?? {}),
        at,
      ],
    );
  },
});
