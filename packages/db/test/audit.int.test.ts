import { uuidV7Ids } from "@agora/domain/common/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUnitOfWork } from "../src/repositories/index";
import { createTestDatabase, type TestDatabase } from "./databases";

describe("audit trail", () => {
  let target: TestDatabase;

  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("records the changed fields, the actor and the request id", async () => {
    const actor = {
      userId: uuidV7Ids.next(),
      role: "admin" as const,
      sessionId: uuidV7Ids.next(),
      requestId: "req-1",
    };
    await createUnitOfWork(target.db, uuidV7Ids).run((tx) =>
      tx.audit.record(
        {
          actor,
          action: "thing.changed",
          targetType: "thing",
          targetId: "t-1",
          before: { a: 1 },
          after: { a: 2 },
        },
        new Date(),
      ),
    );
    const { rows } = await target.db.sql.query(
      "SELECT actor_id, actor_role, before, after, request_id, details FROM audit_events",
    );
    expect(rows).toEqual([
      {
        actor_id: actor.userId,
        actor_role: "admin",
        before: { a: 1 },
        after: { a: 2 },
        request_id: "req-1",
        details: {},
      },
    ]);
  });

  it("is append-only: UPDATE, DELETE and TRUNCATE are refused and change nothing", async () => {
    for (const statement of [
      "UPDATE audit_events SET action = 'rewritten'",
      "DELETE FROM audit_events",
      "TRUNCATE audit_events",
    ]) {
      await expect(target.db.sql.query(statement), statement).rejects.toThrow(/append-only/);
    }
    const { rows } = await target.db.sql.query("SELECT action FROM audit_events");
    expect(rows).toEqual([{ action: "thing.changed" }]);
  });
});
