import type { AuditLog } from "@agora/domain/shared/audit";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { Prisma, PrismaClient } from "../generated/prisma/client";

/** Through Prisma: audit writes are few and never on a hot path (see README, data access). */
export const createAuditLog = (prisma: PrismaClient, ids: IdGenerator): AuditLog => ({
  async record(entry, at) {
    await prisma.auditEvent.create({
      data: {
        id: ids.next(),
        actorId: entry.actor?.userId ?? null,
        actorRole: entry.actor?.role ?? null,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        details: (entry.details ?? {}) as Prisma.InputJsonObject,
        createdAt: at,
      },
    });
  },
});
