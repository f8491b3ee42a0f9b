import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { connect, createServer } from "node:net";
import type { Config } from "@agora/process/config";
import { eventually } from "@agora/testing/eventually";
import { type StartedProcess, startProcess } from "@agora/testing/processes";

/** The NATS server the broker fan-out's tests use (the machine's, started before the session). */
export const natsUrl = process.env.TEST_NATS_URL || "nats://127.0.0.1:4222";

/** Whether a NATS server answers at `url` (its INFO line), within a second. */
export const natsAnswers = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port || 4222) });
    socket.setTimeout(1_000);
    socket.once("data", (data) => {
      socket.destroy();
      resolve(String(data).startsWith("INFO"));
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });

export const natsReachable = await natsAnswers(natsUrl);

/** Why the broker fan-out's tests are skipped, in the skipped test's name. */
export const natsSkipped = `skipped: no NATS server answers at ${natsUrl} (TEST_NATS_URL)`;

/** A fan-out the realtime tests run on: its configuration and, for a second process, its environment. */
export type FanOutMode = {
  name: "postgres" | "nats";
  /** A fresh setup: for NATS a subject of its own, so test files and runs never hear each other. */
  setup(): { config: Partial<Config>; env: Record<string, string> };
};

const postgresMode: FanOutMode = {
  name: "postgres",
  setup: () => ({ config: {}, env: { REALTIME_FANOUT: "postgres" } }),
};

/** The NATS fan-out on `url`. */
export const natsMode = (url = natsUrl): FanOutMode => ({
  name: "nats",
  setup() {
    const subject = `agora.test.${randomUUID()}`;

    return {
      config: { realtimeFanOut: { kind: "nats", url, subject } },
      env: { REALTIME_FANOUT: "nats", NATS_URL: url, NATS_SUBJECT: subject },
    };
  },
});

/** PostgreSQL's (LISTEN, or PGlite's in-process notifications), and NATS's when a server answers. */
export const fanOutModes: FanOutMode[] = natsReachable ? [postgresMode, natsMode()] : [postgresMode];

/** The nats-server binary (NATS_SERVER_BIN, or on PATH), to run a broker a test may restart. */
export const natsServerBinary = (): string | undefined => {
  const named = process.env.NATS_SERVER_BIN;
  if (named) {
    return existsSync(named) ? named : undefined;
  }
  const found = spawnSync("sh", ["-c", "command -v nats-server"], { encoding: "utf8" }).stdout.trim();

  return found || undefined;
};

/** A port nothing listens on at the moment of asking (for a server a test starts itself). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

/**
 * A nats-server of the test's own on loopback `port` (binary from `natsServerBinary`), resolved once
 * it answers; the test stops it (`child.kill`) to cut every connection to it, and starts another on
 * the same port to bring it back.
 */
export const startNatsServer = async (binary: string, port: number): Promise<StartedProcess> => {
  const broker = startProcess({ command: binary, args: ["-a", "127.0.0.1", "-p", String(port)], env: {} });
  await eventually(() => natsAnswers(`nats://127.0.0.1:${port}`));

  return broker;
};
