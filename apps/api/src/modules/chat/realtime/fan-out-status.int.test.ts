// What an operator sees of the realtime fan-out: /ready's `realtime_fanout` and its check, and the
// /metrics gauge and reconnect counter, on each fan-out, through a real loss and its recovery.
import { onPostgres, openTestPool, testDatabaseUrl } from "@agora/db/test/databases";
import { eventually, sleep } from "@agora/testing/eventually";
import { freePort, type StartedProcess } from "@agora/testing/processes";
import { describe, expect, it } from "vitest";
import { describeOnFanOuts, natsMode, natsServerBinary, startNatsServer } from "../../../../test/fan-outs";
import { createHarness, type Harness } from "../../../../test/harness";
import { startServer } from "../../../../test/realtime";

type Ready = {
  data: {
    status: string;
    checks: Record<string, string>;
    realtime_fanout: { mode: string; connected: boolean };
  };
};

/** One sample of the exposition text (undefined when the series is absent). */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));

  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** /ready and /metrics as a balancer and Prometheus read them, on the app's own handler. */
const observe = async (h: Harness, mode: string) => {
  const ready = await h.get<Ready>("/ready");
  const metrics = await h.get("/metrics");

  return {
    status: ready.status,
    check: ready.body.data.checks.realtime_fanout,
    fanOut: ready.body.data.realtime_fanout,
    gauge: sample(metrics.text, `agora_realtime_fanout_connected{mode="${mode}"}`),
    reconnects: sample(metrics.text, `agora_realtime_fanout_reconnects_total{mode="${mode}"}`),
  };
};

/** What both read while the fan-out is up (`reconnects` times back) or lost. */
const up = (mode: string, reconnects: number) => ({
  status: 200,
  check: "ok",
  fanOut: { mode, connected: true },
  gauge: 1,
  reconnects,
});
const lost = (mode: string, reconnects: number) => ({
  status: 200,
  check: "degraded",
  fanOut: { mode, connected: false },
  gauge: 0,
  reconnects,
});

/** Waits until /ready and /metrics both say `expected` (the fan-out notices a loss asynchronously). */
const until = async (h: Harness, mode: string, expected: Awaited<ReturnType<typeof observe>>) => {
  let last: Awaited<ReturnType<typeof observe>> | undefined;
  try {
    await eventually(async () => {
      last = await observe(h, mode);

      return JSON.stringify(last) === JSON.stringify(expected);
    }, 20_000);
  } catch {
    // Show what was read last rather than a bare timeout.
    expect(last).toEqual(expected);
  }
};

describeOnFanOuts("the fan-out's state on /ready and /metrics ($name fan-out)", ({ name, setup }) => {
  it("is not connected before the realtime server starts, connected while it runs, and not after it closed", async () => {
    const h = await createHarness({ seed: false, config: { ...setup().config, readinessChecks: true } });
    try {
      // Nothing opened a fan-out yet: /ready says so, /metrics has no series to alert on.
      expect(await observe(h, name)).toEqual({
        status: 200,
        check: "degraded",
        fanOut: { mode: name, connected: false },
        gauge: undefined,
        reconnects: undefined,
      });
      const api = await startServer(h);
      try {
        expect(await observe(h, name)).toEqual(up(name, 0));
      } finally {
        await api.close();
      }
      expect(await observe(h, name)).toEqual(lost(name, 0));
    } finally {
      await h.close();
    }
  });
});

describe("the fan-out's state with readiness checks disabled", () => {
  it("reports the state and reads the check as skipped", async () => {
    const h = await createHarness({ seed: false });
    const api = await startServer(h);
    try {
      const ready = await h.get<Ready>("/ready");
      expect(ready.status).toBe(200);
      expect(ready.body.data.checks.realtime_fanout).toBe("skipped");
      expect(ready.body.data.realtime_fanout).toEqual({ mode: "postgres", connected: true });
    } finally {
      await api.close();
      await h.close();
    }
  });
});

/**
 * Admits new sessions to the test's database or not (superusers included), from the server's
 * administration database: a database cannot refuse connections from a session of its own.
 */
const admitConnections = async (h: Harness, allow: boolean) => {
  const { rows } = await h.db.sql.query<{ name: string }>("SELECT current_database() AS name");
  const admin = await openTestPool(testDatabaseUrl, { poolMax: 1 });
  try {
    await admin.sql.query(`ALTER DATABASE "${rows[0]?.name}" ALLOW_CONNECTIONS ${allow}`);
  } finally {
    await admin.close();
  }
};

describe.skipIf(!onPostgres)(
  "the LISTEN connection lost and back (PostgreSQL only: its backend is terminated)",
  () => {
    it("flips the gauge and /ready's check to degraded (still 200) while it is lost, and back once it reconnects", async () => {
      const h = await createHarness({ seed: false, config: { readinessChecks: true } });
      const api = await startServer(h);
      try {
        await until(h, "postgres", up("postgres", 0));
        // Keep it lost long enough to be seen: no new session is admitted (superusers included), then
        // the listener's backend is terminated, as a database restart would.
        await admitConnections(h, false);
        try {
          await h.db.sql.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE application_name = 'agora-chat-listener' AND datname = current_database()`,
          );
          await until(h, "postgres", lost("postgres", 0));
          // It stays reported as lost while its retries are refused.
          await sleep(600);
          expect(await observe(h, "postgres")).toEqual(lost("postgres", 0));
        } finally {
          await admitConnections(h, true);
        }
        await until(h, "postgres", up("postgres", 1));
      } finally {
        await api.close();
        await h.close();
      }
    });
  },
);

const natsServer = natsServerBinary();

describe.skipIf(natsServer === undefined)(
  natsServer
    ? "the NATS connection lost and back (a nats-server of the test's own, stopped and started again)"
    : "the NATS connection lost and back (skipped: no nats-server on PATH or at NATS_SERVER_BIN)",
  () => {
    it("flips the gauge and /ready's check to degraded (still 200) while the broker is away, and back once it reconnects", async () => {
      const port = await freePort();
      const binary = natsServer ?? "nats-server";
      let broker: StartedProcess = await startNatsServer(binary, port);
      const h = await createHarness({
        seed: false,
        config: { ...natsMode(`nats://127.0.0.1:${port}`).setup().config, readinessChecks: true },
      });
      const api = await startServer(h);
      try {
        await until(h, "nats", up("nats", 0));
        broker.child.kill("SIGKILL");
        await broker.exited;
        await until(h, "nats", lost("nats", 0));
        // It stays reported as lost while nothing answers (the client retries every 250 ms).
        await sleep(600);
        expect(await observe(h, "nats")).toEqual(lost("nats", 0));
        broker = await startNatsServer(binary, port);
        await until(h, "nats", up("nats", 1));
      } finally {
        await api.close();
        await h.close();
        broker.child.kill("SIGKILL");
      }
    });
  },
);
