// The multi-process proof as a test: the same run `pnpm proof` prints, asserted. It needs a
// PostgreSQL server (several processes share one database) and nginx (the balancer).
import { describe, expect, it } from "vitest";
import { findNginx } from "../src/proof/cluster.ts";
import { formatProof, runProof } from "../src/proof/run.ts";

const serverUrl = process.env.TEST_DATABASE_URL || undefined;
const nginx = findNginx(process.env.PROOF_NGINX);
const skipped = !serverUrl
  ? " — skipped: PostgreSQL only (2 API processes and 2 workers share one server database; set TEST_DATABASE_URL)"
  : !nginx
    ? " — skipped: nginx is not installed (the balancer; set PROOF_NGINX)"
    : "";

describe.skipIf(skipped !== "")(`the multi-process proof${skipped}`, () => {
  it("2 APIs and 2 workers behind nginx under autocannon: idempotent orders, chat across processes, a rolling restart and a worker killed mid-batch leave no duplicate and lose nothing", async () => {
    const report = await runProof({
      serverUrl: serverUrl ?? "",
      loadSeconds: 4,
      connections: 12,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`\n${formatProof(report)}`);
    expect(report.rows.map((row) => row.phase)).toEqual([
      "orders, Idempotency-Key (replays)",
      "chat, API 1 → sockets on API 2",
      "rolling restart (SIGTERM, restart) ×2",
      "worker kill -9 mid-batch",
    ]);
    for (const row of report.rows) {
      expect({ phase: row.phase, duplicates: row.duplicates, lost: row.lost }).toEqual({
        phase: row.phase,
        duplicates: 0,
        lost: 0,
      });
      // Each phase did real work, and every request that failed was made good by a retry.
      expect(row.ok).toBeGreaterThan(0);
    }
    expect(report.notes.filter((note) => note.includes("SIGTERM → exit"))).toEqual([
      expect.stringContaining("exit 0"),
      expect.stringContaining("exit 0"),
    ]);
    expect(report.ok).toBe(true);
  }, 300_000);
});
