import type { AnnouncementRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { ExtendedPrismaClient } from "../../client/prisma-client";

const published = { published: true } as const;

/** Through Prisma: administrators write a few; members read small pages. */
export const createAnnouncementRepository = (
  prisma: () => Promise<ExtendedPrismaClient>,
): AnnouncementRepository => ({
  async create(announcement) {
    const client = await prisma();
    await client.announcement.create({ data: announcement });
  },

  async listPublished(page) {
    const client = await prisma();
    const [items, total] = await Promise.all([
      client.announcement.findMany({
        where: published,
        orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      client.announcement.count({ where: published }),
    ]);

    return { items, total };
  },
});
