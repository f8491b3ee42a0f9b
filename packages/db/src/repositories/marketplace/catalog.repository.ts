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

  async findActiveCategory(id) {
    const key = idParam(id);

    return key
      ? prisma.category.findFirst({ where: { id: key, ...activeCategory }, select: categoryFields })
      : null;
  },
});
