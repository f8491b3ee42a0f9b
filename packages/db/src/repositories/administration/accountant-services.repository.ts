import type { AccountantServiceRepository } from "@agora/domain/administration/administration.ports";
import type { PrismaClient } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { SqlExecutor } from "../../sql";

/** Assignments through Prisma; the per-read scope check (order reads) is one raw statement. */
export const createAccountantServiceRepository = (
  prisma: PrismaClient,
  db: SqlExecutor,
): AccountantServiceRepository => ({
  async findServices(accountantId) {
    const rows = await prisma.accountantService.findMany({
      where: { accountantId },
      select: { service: { select: { id: true, name: true } } },
      orderBy: { service: { name: "asc" } },
    });

    return rows.map((row) => row.service);
  },

  async findServiceIdsByAccountants(accountantIds) {
    const rows = await prisma.accountantService.findMany({
      where: { accountantId: { in: [...accountantIds] } },
      select: { accountantId: true, serviceId: true },
      orderBy: [{ accountantId: "asc" }, { serviceId: "asc" }],
    });
    const byAccountant = new Map<string, string[]>();
    for (const row of rows) {
      byAccountant.set(row.accountantId, [...(byAccountant.get(row.accountantId) ?? []), row.serviceId]);
    }

    return byAccountant;
  },

  async replace(accountantId, serviceIds, at) {
    await prisma.accountantService.deleteMany({ where: { accountantId } });
    if (serviceIds.length > 0) {
      await prisma.accountantService.createMany({
        data: serviceIds.map((serviceId) => ({ accountantId, serviceId, assignedAt: at })),
      });
    }
  },

  async coversListing(accountantId, listingId) {
    const { rows } = await db.query<{ covered: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM listings l JOIN categories c ON c.id = l.category_id
           JOIN accountant_services a ON a.service_id = c.service_id
          WHERE l.id = $2 AND a.accountant_id = $1) AS covered`,
      [accountantId, idParam(listingId)],
      "accountant_services_covers_listing",
    );

    return rows[0]?.covered ?? false;
  },
});
