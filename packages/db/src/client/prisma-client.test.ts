import { uuidV7Ids } from "@agora/domain/common/ids";
import { describe, expect, it, vi } from "vitest";
import { createRepositories } from "../repositories/index";
import type { SqlExecutor } from "../sql";
import { type ExtendedPrismaClient, prismaLoader } from "./prisma-client";

// What the loader does with a client is hand it out and disconnect it, so a client here is only that.
const client = () => ({ $disconnect: vi.fn(async () => {}) }) as unknown as ExtendedPrismaClient;

describe("prismaLoader", () => {
  it("makes the client at the first call and hands every later one, concurrent ones too, the same", async () => {
    const made = client();
    const create = vi.fn(async () => made);
    const loader = prismaLoader(create);
    expect(create).not.toHaveBeenCalled();

    const [first, second] = await Promise.all([loader.prisma(), loader.prisma()]);
    expect([first, second, await loader.prisma()]).toEqual([made, made, made]);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("keeps no failed load: the next call tries again", async () => {
    const made = client();
    const create = vi
      .fn<() => Promise<ExtendedPrismaClient>>()
      .mockRejectedValueOnce(new Error("Cannot find module"))
      .mockResolvedValue(made);
    const loader = prismaLoader(create);

    await expect(loader.prisma()).rejects.toThrow("Cannot find module");
    expect(await loader.prisma()).toBe(made);
    expect(create).toHaveBeenCalledTimes(2);
  });

  it("disconnects the client on close only if it was made", async () => {
    const create = vi.fn(async () => client());
    await prismaLoader(create).disconnect();
    expect(create).not.toHaveBeenCalled();

    const loader = prismaLoader(create);
    const made = await loader.prisma();
    await loader.disconnect();
    expect(made.$disconnect).toHaveBeenCalledTimes(1);
  });
});

describe("the Prisma-backed repositories", () => {
  const db: SqlExecutor = {
    query: () => Promise.reject(new Error("no statement expected")),
    exec: () => Promise.reject(new Error("no statement expected")),
  };

  it("load the client in the methods that query it, not when they are built", async () => {
    const prisma = vi.fn(() => Promise.reject(new Error("Prisma was loaded")));
    const repos = createRepositories(db, prisma, uuidV7Ids);
    // An id that is not a UUID names no row: answered without a query, so without loading Prisma.
    expect(await repos.providers.findById("not-an-id")).toBeNull();
    expect(await repos.catalog.findActiveCategory("not-an-id")).toBeNull();
    expect(prisma).not.toHaveBeenCalled();

    await expect(repos.catalog.listServices()).rejects.toThrow("Prisma was loaded");
    expect(prisma).toHaveBeenCalledTimes(1);
  });
});
