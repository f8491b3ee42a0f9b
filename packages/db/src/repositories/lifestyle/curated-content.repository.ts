import type { CuratedContentRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { PrismaClient } from "../../generated/prisma/client";

const fields = { id: true, title: true, body: true, publishedAt: true } as const;

/** Through Prisma: editorial content, rarely written and read in small pages. */
export const createCuratedContentRepository = (prisma: PrismaClient): CuratedContentRepository => ({
  async create(item, at) {
    await prisma.curatedContent.create({ data: { ...item, createdAt: at } });
  },

  async list(page) {
    const [items, total] = await Promise.all([
      prisma.curatedContent.findMany({
        select: fields,
        orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      prisma.curatedContent.count(),
    ]);

    return { items, total };
  },
});
