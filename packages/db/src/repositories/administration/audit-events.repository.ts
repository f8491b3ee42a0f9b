import type { AuditReader } from "@agora/domain/administration/administration.ports";
import type { ExtendedPrismaClient } from "../../client/prisma-client";
import { idParam } from "../../ids";

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** Reads of the audit trail, through Prisma (filters on the indexes the administration migration adds). */
export const createAuditReader = (prisma: () => Promise<ExtendedPrismaClient>): AuditReader => ({
  async findPage(filter, page) {
    if (filter.actorId !== undefined && idParam(filter.actorId) === null) {
      return { items: [], total: 0 };
    }
    const where = {
      ...(filter.actorId === undefined ? {} : { actorId: filter.actorId }),
      ...(filter.action === undefined ? {} : { action: filter.action }),
      ...(filter.targetType === undefined ? {} : { targetType: filter.targetType }),
      ...(filter.targetId === undefined ? {} : { targetId: filter.targetId }),
      ...(filter.since === undefined ? {} : { createdAt: { gte: filter.since } }),
    };
    const client = await prisma();
    const [rows, total] = await Promise.all([
      client.auditEvent.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      client.auditEvent.count({ where }),
    ]);

    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        actorId: row.actorId,
        actorRole: row.actorRole,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        before: asRecord(row.before),
        after: asRecord(row.after),
        details: asRecord(row.details) ?? {},
        requestId: row.requestId,
        createdAt: row.createdAt,
      })),
    };
  },
});
