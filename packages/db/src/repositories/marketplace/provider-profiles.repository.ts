import type { ProviderRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { ProviderProfile } from "@agora/domain/marketplace/marketplace.types";
import type { ExtendedPrismaClient } from "../../client/prisma-client";
import type { ProviderProfile as ProviderModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";

const toProvider = (row: ProviderModel): ProviderProfile => ({
  id: row.id,
  userId: row.userId,
  displayName: row.displayName,
  bio: row.bio,
  phone: row.phone,
  approvalStatus: row.approvalStatus as ProviderProfile["approvalStatus"],
  availability: row.availability as ProviderProfile["availability"],
  createdAt: row.createdAt,
});

/**
 * Provider profiles through Prisma (not a hot path). The listings' copies of the provider (its
 * approval, its name in their search text) are the listings repository's, called by the use cases.
 */
export const createProviderRepository = (
  prisma: () => Promise<ExtendedPrismaClient>,
): ProviderRepository => ({
  async findById(id) {
    const key = idParam(id);
    if (!key) {
      return null;
    }
    const client = await prisma();
    // findFirst, not findUnique: Prisma batches the findUnique calls of one tick into one query run
    // in the first caller's async context, which may be outside this call's unit of work (see
    // packages/db/test/unit-of-work.int.test.ts).
    const row = await client.providerProfile.findFirst({ where: { id: key } });

    return row ? toProvider(row) : null;
  },

  async findByUserId(userId) {
    const client = await prisma();
    const row = await client.providerProfile.findFirst({ where: { userId } });

    return row ? toProvider(row) : null;
  },

  async create(profile, at) {
    const client = await prisma();
    const { count } = await client.providerProfile.createMany({
      data: [
        {
          id: profile.id,
          userId: profile.userId,
          displayName: profile.displayName,
          bio: profile.bio,
          phone: profile.phone,
          approvalStatus: profile.approvalStatus,
          availability: profile.availability,
          createdAt: at,
          updatedAt: at,
        },
      ],
      skipDuplicates: true,
    });

    return count === 1;
  },

  async update(id, changes, at) {
    const key = idParam(id);
    if (!key) {
      return null;
    }
    const client = await prisma();
    const { count } = await client.providerProfile.updateMany({
      where: { id: key },
      data: {
        ...(changes.displayName === undefined ? {} : { displayName: changes.displayName }),
        ...(changes.bio === undefined ? {} : { bio: changes.bio }),
        ...(changes.phone === undefined ? {} : { phone: changes.phone }),
        updatedAt: at,
      },
    });
    if (count === 0) {
      return null;
    }

    return this.findById(key);
  },

  async findPage(filter, page) {
    const where = {
      ...(filter.q === undefined
        ? {}
        : { displayName: { contains: filter.q, mode: "insensitive" as const } }),
      ...(filter.status === undefined ? {} : { approvalStatus: filter.status }),
    };
    const client = await prisma();
    const [rows, total] = await Promise.all([
      client.providerProfile.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      client.providerProfile.count({ where }),
    ]);

    return { items: rows.map(toProvider), total };
  },

  async approve(id, at) {
    const key = idParam(id);
    if (!key) {
      return null;
    }
    const client = await prisma();
    const { count } = await client.providerProfile.updateMany({
      where: { id: key, approvalStatus: { in: ["pending", "withdrawn"] } },
      data: { approvalStatus: "approved", approvedAt: at, updatedAt: at },
    });
    if (count === 0) {
      return null;
    }

    return this.findById(key);
  },

  async withdrawByUserId(userId, at) {
    const client = await prisma();
    const { count } = await client.providerProfile.updateMany({
      where: { userId, approvalStatus: "approved" },
      data: { approvalStatus: "withdrawn", updatedAt: at },
    });

    return count === 0 ? null : this.findByUserId(userId);
  },
});
