import type { AuditLog } from "@agora/domain/common/audit";
import type { IdGenerator } from "@agora/domain/common/ids";
import type { ExtendedPrismaClient } from "../client/prisma-client";
import type { Prisma } from "../generated/prisma/client";

const json = (value: Record<string, unknown> | undefined) =>
  value === undefined ? undefined : (value as Prisma.InputJsonObject);

/** Through Prisma: audit writes are few and never on a hot path (see docs/decisions/raw-sql-and-prisma.md). */
export const createAuditLog = (prisma: () => Promise<ExtendedPrismaClient>, ids: IdGenerator): AuditLog => ({
  async record(entry, at) {
    const client = await prisma();
    await client.auditEvent.create({
      data: {
        id: ids.next(),
        actorId: entry.actor?.userId ?? null,
        actorRole: entry.actor?.role ?? null,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        details: json(entry.details) ?? {},
        before: json(entry.before),
        after: json(entry.after),
        requestId: entry.actor?.requestId ?? null,
        createdAt: at,
      },
    });
  },
});
