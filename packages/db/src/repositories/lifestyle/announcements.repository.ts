import type { AnnouncementRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { PrismaClient } from "../../generated/prisma/client";

const published = { published: true } as const;

/** Through Prisma: administrators write a few; members read small pages. */
export const createAnnouncementRepository = (prisma: PrismaClient): AnnouncementRepository => ({
  async create(announcement) {
    await prisma.announcement.create({ data: announcement });
  },

  async listPublished(page) {
    const [items, total] = await Promise.all([
      prisma.announcement.findMany({
        where: published,
        orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      prisma.announcement.count({ where: published }),
    ]);

    return { items, total };
  },
});
