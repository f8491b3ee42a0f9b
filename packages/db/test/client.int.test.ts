import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/client";

describe("embedded database (PGlite on disk)", () => {
  const root = mkdtempSync(path.join(tmpdir(), "agora-pglite-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("refuses a directory another live process holds, naming it", async () => {
    const dataDir = path.join(root, "held");
    // The parent process (the test runner's) is alive and is not us.
    writeFileSync(`${dataDir}.lock`, String(process.ppid));
    await expect(openDatabase({ dataDir, lockWaitMs: 200 })).rejects.toThrow(
      `in use by process ${process.ppid}`,
    );
  });

  it("takes over a stale lock, holds the directory while open and releases it on close", async () => {
    const dataDir = path.join(root, "stale");
    writeFileSync(`${dataDir}.lock`, "999999999");
    const db = await openDatabase({ dataDir, lockWaitMs: 200 });
    try {
      expect(readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
      await db.ping();
    } finally {
      await db.close();
    }
    expect(() => readFileSync(`${dataDir}.lock`)).toThrow();
  });
});

describe("PostgreSQL", () => {
  // Opening a pool connects lazily: no server is needed to see where each kind of connection goes.
  it("sends the LISTEN session to listenUrl when given (a transaction pooler cannot carry LISTEN)", async () => {
    const pooled = "postgresql://agora@pooler.invalid:5432/agora";
    const direct = "postgresql://agora@primary.invalid:5432/agora";
    const split = await openDatabase({ url: pooled, listenUrl: direct });
    const single = await openDatabase({ url: pooled });
    try {
      expect(split.listenTarget).toEqual({ kind: "postgres", url: direct });
      expect(single.listenTarget).toEqual({ kind: "postgres", url: pooled });
    } finally {
      await Promise.all([split.close(), single.close()]);
    }
  });
});
