import type { CuratedContentRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { ExtendedPrismaClient } from "../../client/prisma-client";

const fields = { id: true, title: true, body: true, publishedAt: true } as const;

/** Through Prisma: editorial content, rarely written and read in small pages. */
export const createCuratedContentRepository = (
  prisma: () => Promise<ExtendedPrismaClient>,
): CuratedContentRepository => ({
  async create(item, at) {
    const client = await prisma();
    await client.curatedContent.create({ data: { ...item, createdAt: at } });
  },

  async list(page) {
    const client = await prisma();
    const [items, total] = await Promise.all([
      client.curatedContent.findMany({
        select: fields,
        orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      client.curatedContent.count(),
    ]);

    return { items, total };
  },
});
