import type { CatalogRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { PrismaClient } from "../../generated/prisma/client";
import { idParam } from "../../ids";

const activeCategory = { active: true, service: { active: true } } as const;
const categoryFields = { id: true, serviceId: true, name: true } as const;

/** Through Prisma: small, rarely written tables read off the hot paths. */
export const createCatalogRepository = (prisma: PrismaClient): CatalogRepository => ({
  listServices: () =>
    prisma.service.findMany({
      where: { active: true },
      orderBy: [{ sortOrder: "asc" }, { name: "asc" }],
      select: { id: true, name: true, description: true },
    }),

  listCategories: () =>
    prisma.category.findMany({
      where: activeCategory,
      orderBy: [{ service: { sortOrder: "asc" } }, { sortOrder: "asc" }, { name: "asc" }],
      select: categoryFields,
    }),

  async findExistingServiceIds(ids) {
    const keys = ids.flatMap((id) => idParam(id) ?? []);
    const found = await prisma.service.findMany({ where: { id: { in: keys } }, select: { id: true } });

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
    const [items, total] = await Promise.all([
      prisma.service.findMany({
        where,
        orderBy: [{ name: "asc" }, { id: "asc" }],
        skip: page.offset,
        take: page.limit,
        select: { id: true, name: true, description: true, active: true },
      }),
      prisma.service.count({ where }),
    ]);

    return { items, total };
  },

  async findActiveCategory(id) {
    const key = idParam(id);

    return key
      ? prisma.category.findFirst({ where: { id: key, ...activeCategory }, select: categoryFields })
      : null;
  },
});
