import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "./databases";

describe("catalog_stamp: moved on once by every committed catalog change", () => {
  let target: TestDatabase;
  const categories = [randomUUID(), randomUUID()] as const;

  beforeAll(async () => {
    target = await createTestDatabase();
    const service = randomUUID();
    await target.db.sql.query("INSERT INTO services (id, slug, name) VALUES ($1, $2, 'Food')", [
      service,
      `food-${service}`,
    ]);
    for (const id of categories) {
      await target.db.sql.query(
        "INSERT INTO categories (id, service_id, slug, name) VALUES ($1, $2, $3, 'Soup')",
        [id, service, `soup-${id}`],
      );
    }
  });
  afterAll(async () => {
    await target?.dispose();
  });

  const stamp = async () =>
    Number(
      (await target.db.sql.query<{ version: string }>("SELECT version FROM catalog_stamp WHERE id = 1"))
        .rows[0]?.version,
    );

  it("moves once per transaction however many rows and tables it writes (or truncates); not for a rollback or a no-op", async () => {
    const before = await stamp();
    await target.db.sql.transaction(async (tx) => {
      await tx.query("UPDATE categories SET name = 'Broth' WHERE id = ANY($1::uuid[])", [categories]);
      await tx.query(
        "UPDATE services SET name = 'Meals' WHERE id = (SELECT service_id FROM categories LIMIT 1)",
      );
      await tx.query("UPDATE categories SET sort_order = 1 WHERE id = $1", [categories[0]]);
    });
    expect(await stamp()).toBe(before + 1);

    await target.db.sql
      .transaction(async (tx) => {
        await tx.query("UPDATE categories SET name = 'Stew' WHERE id = $1", [categories[0]]);
        throw new Error("rolled back");
      })
      .catch(() => {});
    await target.db.sql.query("UPDATE categories SET name = 'Stew' WHERE id = $1", [randomUUID()]);
    expect(await stamp()).toBe(before + 1);

    await target.db.sql.query("UPDATE categories SET name = 'Stew' WHERE id = $1", [categories[1]]);
    expect(await stamp()).toBe(before + 2);

    // TRUNCATE fires no row triggers: a statement trigger of its own moves the stamp.
    await target.db.sql.exec("TRUNCATE menu_items CASCADE");
    expect(await stamp()).toBe(before + 3);
  });

  // The bump runs at commit, after every row lock the transaction takes: two transactions writing
  // catalog rows in crossing order wait for each other's rows, never for the stamp in between. (With
  // a bump at the first write, the second transaction would wait for the first one's stamp while
  // the first waits for the second's row: a deadlock, here a hang.)
  it.skipIf(!onPostgres)(
    "lets transactions that write catalog rows in crossing order both commit (PostgreSQL: two connections)",
    async () => {
      const first = new pg.Client({ connectionString: target.url });
      const second = new pg.Client({ connectionString: target.url });
      await Promise.all([first.connect(), second.connect()]);
      try {
        const before = await stamp();
        await first.query("BEGIN");
        await second.query("BEGIN");
        await first.query("UPDATE categories SET name = 'Pho' WHERE id = $1", [categories[0]]);
        await second.query("UPDATE categories SET name = 'Ramen' WHERE id = $1", [categories[1]]);
        // Waits for the second transaction's row until it commits.
        const crossing = first.query("UPDATE categories SET name = 'Pho' WHERE id = $1", [categories[1]]);
        await second.query("COMMIT");
        await crossing;
        await first.query("COMMIT");
        expect(await stamp()).toBe(before + 2);
        const { rows } = await target.db.sql.query<{ name: string }>(
          "SELECT name FROM categories WHERE id = ANY($1::uuid[]) ORDER BY name",
          [categories],
        );
        expect(rows.map((row) => row.name)).toEqual(["Pho", "Pho"]);
      } finally {
        await Promise.all([first.end(), second.end()]);
      }
    },
  );
});
