import type { CatalogRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { ExtendedPrismaClient } from "../../client/prisma-client";
import { idParam } from "../../ids";

const activeCategory = { active: true, service: { active: true } } as const;
const categoryFields = { id: true, serviceId: true, name: true } as const;

/** Through Prisma: small, rarely written tables read off the hot paths. */
export const createCatalogRepository = (prisma: () => Promise<ExtendedPrismaClient>): CatalogRepository => ({
  async listServices() {
    const client = await prisma();

    return client.service.findMany({
      where: { active: true },
      orderBy: [{ sortOrder: "asc" }, { name: "asc" }],
      select: { id: true, name: true, description: true },
    });
  },

  async listCategories() {
    const client = await prisma();

    return client.category.findMany({
      where: activeCategory,
      orderBy: [{ service: { sortOrder: "asc" } }, { sortOrder: "asc" }, { name: "asc" }],
      select: categoryFields,
    });
  },

  async findExistingServiceIds(ids) {
    const keys = ids.flatMap((id) => idParam(id) ?? []);
    const client = await prisma();
    const found = await client.service.findMany({ where: { id: { in: keys } }, select: { id: true } });

    return found.map((service) => service.id);
  },

  async findServicesPage(filter, page) {
    const where = {
      ...(filter.q === undefined
        ? {}
        : {
            OR: [
              { name: { contains: filter.q, mode: "insensitive" as const } },
              { description: { contains: filter.q, mode: "insensitive" as const } },
            ],
          }),
      ...(filter.active === undefined ? {} : { active: filter.active }),
    };
    const client = await prisma();
    const [items, total] = await Promise.all([
      client.service.findMany({
        where,
        orderBy: [{ name: "asc" }, { id: "asc" }],
        skip: page.offset,
        take: page.limit,
        select: { id: true, name: true, description: true, active: true },
      }),
      client.service.count({ where }),
    ]);

    return { items, total };
  },

  async findActiveCategory(id) {
    const key = idParam(id);
    if (!key) {
      return null;
    }
    const client = await prisma();

    return client.category.findFirst({ where: { id: key, ...activeCategory }, select: categoryFields });
  },
});
