import { AsyncResource } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { uuidV7Ids } from "@agora/domain/common/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUnitOfWork } from "../src/repositories/index";
import { createTestDatabase, onPostgres, type TestDatabase } from "./databases";

const service = (slug: string) => ({ id: randomUUID(), slug, name: slug, createdAt: new Date() });

describe("unit of work: raw SQL and Prisma in one transaction", () => {
  let target: TestDatabase;

  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  const slugs = async () =>
    (await target.db.sql.query<{ slug: string }>("SELECT slug FROM services ORDER BY slug")).rows.map(
      (row) => row.slug,
    );

  it("runs Prisma's queries on the transaction's connection: they see its uncommitted rows and commit with it", async () => {
    const uow = createUnitOfWork(target.db, uuidV7Ids);
    const seen = await uow.run(async (tx) => {
      const prisma = await target.db.prisma();
      await prisma.service.create({ data: service("by-prisma") });
      await tx.audit.record(
        { actor: null, action: "test.done", targetType: "test", targetId: "t" },
        new Date(),
      );
      // The raw executor of the same transaction sees Prisma's row, and Prisma sees raw rows.
      const raw = await tx.catalog.listServices();

      return raw.map((row) => row.name);
    });

    expect(seen).toContain("by-prisma");
    expect(await slugs()).toContain("by-prisma");
    const { rows } = await target.db.sql.query("SELECT 1 FROM audit_events WHERE action = 'test.done'");
    expect(rows).toHaveLength(1);
  });

  it("rolls Prisma's writes back with the transaction", async () => {
    const uow = createUnitOfWork(target.db, uuidV7Ids);
    await expect(
      uow.run(async (tx) => {
        const prisma = await target.db.prisma();
        await prisma.service.create({ data: service("rolled-back") });
        await tx.audit.record(
          { actor: null, action: "test.undone", targetType: "test", targetId: "t" },
          new Date(),
        );
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");

    expect(await slugs()).not.toContain("rolled-back");
    const { rows } = await target.db.sql.query("SELECT 1 FROM audit_events WHERE action = 'test.undone'");
    expect(rows).toHaveLength(0);
  });

  it("refuses a Prisma transaction inside a unit of work instead of committing the outer one early", async () => {
    const uow = createUnitOfWork(target.db, uuidV7Ids);
    await expect(
      uow.run(async () => {
        const prisma = await target.db.prisma();
        await prisma.$transaction(async (tx) => {
          await tx.service.create({ data: service("nested") });
        });
      }),
    ).rejects.toThrow("a Prisma transaction cannot start inside a unit of work");
    expect(await slugs()).not.toContain("nested");
  });

  // PostgreSQL only: PGlite has one session, so a read outside an open unit of work waits for it.
  it.skipIf(!onPostgres)(
    "keeps a findFirst inside a unit of work on its transaction when a read outside runs in the same tick",
    async () => {
      // findUnique is batched across callers (the batch runs in the first caller's context): the
      // repositories use findFirst, which this shows staying on each caller's own connection.
      const prisma = await target.db.prisma();
      // Prisma's queries are lazy: one runs in the async context that awaits it, so the outside read
      // awaits its own.
      const outside = AsyncResource.bind(
        async () => await prisma.service.findFirst({ where: { slug: "unit-only" } }),
      );
      const uow = createUnitOfWork(target.db, uuidV7Ids);
      const [fromOutside, fromInside] = await uow.run(async () => {
        await prisma.service.create({ data: service("unit-only") });
        const inside = prisma.service.findFirst({ where: { slug: "unit-only" } });

        return Promise.all([outside(), inside]);
      });

      expect(fromInside?.slug).toBe("unit-only");
      expect(fromOutside).toBeNull();
    },
  );

  it("runs Prisma on the pool outside a unit of work", async () => {
    const prisma = await target.db.prisma();
    await prisma.service.create({ data: service("outside") });
    expect(await slugs()).toContain("outside");
  });
});
