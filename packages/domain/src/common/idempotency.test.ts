// The claim protocol of `runClaimed` (a key's record: absent → pending → answered, or released)
// over an in-memory store with the database's semantics: an insert of a live key is refused.
import { describe, expect, it } from "vitest";
import { AppError, NotFoundError } from "./app-error";
import { createManualClock } from "./clock";
import { KEY_PURPOSES } from "./derived-keys";
import {
  type IdempotencyRecord,
  type IdempotencyRequest,
  type IdempotencyStore,
  ReplayedRefusal,
  runClaimed,
} from "./idempotency";
import { createSecretBox } from "./secret-box";

const memoryStore = () => {
  const records = new Map<string, IdempotencyRecord>();
  const id = (scope: string, route: string, key: string) => `${scope} ${route} ${key}`;
  const store: IdempotencyStore = {
    async find(scope, route, key, now) {
      const found = records.get(id(scope, route, key));
      return found && found.expiresAt > now ? found : null;
    },
    async save(record, now) {
      const existing = records.get(id(record.scope, record.route, record.key));
      if (existing && existing.expiresAt > now) {
        return false;
      }
      records.set(id(record.scope, record.route, record.key), record);
      return true;
    },
    async complete(record) {
      records.set(id(record.scope, record.route, record.key), record);
    },
    async release(scope, route, key) {
      if (records.get(id(scope, route, key))?.outcome.type === "pending") {
        records.delete(id(scope, route, key));
      }
    },
  };

  return { store, records };
};

const request = (fingerprint = "body-1"): IdempotencyRequest => ({
  scope: "user-1",
  route: "POST /api/v1/community/moments",
  key: "key-1",
  fingerprint,
});

const setup = () => {
  const { store, records } = memoryStore();
  const deps = {
    idempotency: store,
    clock: createManualClock(new Date("2026-11-26T06:00:00Z")),
    secrets: createSecretBox("x".repeat(32), KEY_PURPOSES.idempotentAnswers),
  };
  const keep = { keep: (answer: { status: number }) => answer.status < 500 };

  return { deps, records, keep };
};

describe("runClaimed", () => {
  it("runs once, records the answer, and replays it for the same key and body", async () => {
    const { deps, records, keep } = setup();
    let runs = 0;
    const work = async () => {
      runs += 1;
      return { status: 201, id: `moment-${runs}` };
    };

    const first = await runClaimed(deps, request(), work, keep);
    const second = await runClaimed(deps, request(), work, keep);

    expect(first).toEqual({ result: { status: 201, id: "moment-1" }, replayed: false });
    expect(second).toEqual({ result: { status: 201, id: "moment-1" }, replayed: true });
    expect(runs).toBe(1);
    expect([...records.values()][0]?.outcome.type).toBe("result");
  });

  it("refuses another body with idempotency_conflict, before running anything", async () => {
    const { deps, keep } = setup();
    await runClaimed(deps, request(), async () => ({ status: 201 }), keep);
    let ran = false;
    const work = async () => {
      ran = true;
      return { status: 201 };
    };

    await expect(runClaimed(deps, request("body-2"), work, keep)).rejects.toMatchObject({
      code: "idempotency_conflict",
    });
    expect(ran).toBe(false);
  });

  it("makes a request that arrives while the first runs wait for its answer, not run again", async () => {
    const { deps, keep } = setup();
    let finish: (value: { status: number }) => void = () => undefined;
    let runs = 0;
    const slow = () =>
      new Promise<{ status: number }>((resolve) => {
        runs += 1;
        finish = resolve;
      });

    const first = runClaimed(deps, request(), slow, keep);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = runClaimed(deps, request(), slow, keep);
    await new Promise((resolve) => setTimeout(resolve, 80));
    finish({ status: 201 });

    expect(await first).toEqual({ result: { status: 201 }, replayed: false });
    expect(await second).toEqual({ result: { status: 201 }, replayed: true });
    expect(runs).toBe(1);
  });

  it("records a domain refusal and throws it again on replay", async () => {
    const { deps, keep } = setup();
    const refuse = async (): Promise<{ status: number }> => {
      throw new NotFoundError("Moment");
    };

    await expect(runClaimed(deps, request(), refuse, keep)).rejects.toBeInstanceOf(NotFoundError);
    const replay = runClaimed(deps, request(), async () => ({ status: 201 }), keep);
    await expect(replay).rejects.toBeInstanceOf(ReplayedRefusal);
    await expect(replay).rejects.toMatchObject({ code: "not_found" });
  });

  it("releases the key after a 5xx answer, a transient failure or a throttle: the retry runs again", async () => {
    const { deps, records, keep } = setup();
    await runClaimed(deps, request(), async () => ({ status: 503 }), keep);
    expect(records.size).toBe(0);
    await expect(
      runClaimed(
        deps,
        request(),
        async () => Promise.reject(new AppError("storage_unavailable", "down")),
        keep,
      ),
    ).rejects.toMatchObject({ code: "storage_unavailable" });
    expect(records.size).toBe(0);
    await expect(
      runClaimed(deps, request(), async () => Promise.reject(new AppError("rate_limited", "later")), keep),
    ).rejects.toMatchObject({ code: "rate_limited" });
    expect(records.size).toBe(0);

    const retried = await runClaimed(deps, request(), async () => ({ status: 201 }), keep);
    expect(retried.replayed).toBe(false);
  });

  it("keeps the answer sealed when given a secret part", async () => {
    const { deps, records } = setup();
    const sealed = {
      keep: () => true,
      secretPart: {
        take: (answer: { body: string }) => ({ rest: { body: "" }, secret: answer.body }),
        put: (_: { body: string }, secret: string) => ({ body: secret }),
      },
    };

    await runClaimed(deps, request(), async () => ({ body: "a private sunset" }), sealed);
    const replay = await runClaimed(deps, request(), async () => ({ body: "other" }), sealed);

    expect(JSON.stringify([...records.values()][0]?.outcome)).not.toContain("private sunset");
    expect(replay.result).toEqual({ body: "a private sunset" });
  });
});
