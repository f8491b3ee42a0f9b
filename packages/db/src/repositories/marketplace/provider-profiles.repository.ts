import type { ProviderRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { ProviderProfile } from "@agora/domain/marketplace/marketplace.types";
import type { PrismaClient, ProviderProfile as ProviderModel } from "../../generated/prisma/client";
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
export const createProviderRepository = (prisma: PrismaClient): ProviderRepository => ({
  async findById(id) {
    const key = idParam(id);
    const row = key ? await prisma.providerProfile.findUnique({ where: { id: key } }) : null;

    return row ? toProvider(row) : null;
  },

  async findByUserId(userId) {
    const row = await prisma.providerProfile.findUnique({ where: { userId } });

    return row ? toProvider(row) : null;
  },

  async create(profile, at) {
    const { count } = await prisma.providerProfile.createMany({
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
    const { count } = await prisma.providerProfile.updateMany({
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
    const [rows, total] = await Promise.all([
      prisma.providerProfile.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: page.offset,
        take: page.limit,
      }),
      prisma.providerProfile.count({ where }),
    ]);

    return { items: rows.map(toProvider), total };
  },

  async approve(id, at) {
    const key = idParam(id);
    if (!key) {
      return null;
    }
    const { count } = await prisma.providerProfile.updateMany({
      where: { id: key, approvalStatus: { in: ["pending", "withdrawn"] } },
      data: { approvalStatus: "approved", approvedAt: at, updatedAt: at },
    });
    if (count === 0) {
      return null;
    }

    return this.findById(key);
  },

  async withdrawByUserId(userId, at) {
    const { count } = await prisma.providerProfile.updateMany({
      where: { userId, approvalStatus: "approved" },
      data: { approvalStatus: "withdrawn", updatedAt: at },
    });

    return count === 0 ? null : this.findByUserId(userId);
  },
});
