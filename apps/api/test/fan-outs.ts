// The realtime tests' two chat fan-outs: PostgreSQL's, and NATS's when a server answers. A suite
// runs on each (describeOnFanOuts), in this process and, for the cross-process cases, in a second
// API process started from the build (startSecondApi).
import { type ChildProcess, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { natsAnswers } from "@agora/db/nats-probe";
import { onPostgres } from "@agora/db/test/databases";
import type { Config } from "@agora/process/config";
import { eventually } from "@agora/testing/eventually";
import { builtEntry, type StartedProcess, startProcess } from "@agora/testing/processes";
import { describe, it } from "vitest";
import type { Harness } from "./harness";
import { openSocket, type TestSocket } from "./realtime";

/** The NATS server the broker fan-out's tests use (the machine's, started before the session). */
export const natsUrl = process.env.TEST_NATS_URL || "nats://127.0.0.1:4222";

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

/**
 * `suite` once on each fan-out (`$name` in `name` says which), on PostgreSQL only with
 * `postgresOnly` (a second process needs a server both can reach). Without a NATS server, the NATS
 * run is a skipped test naming the reason: an empty passing suite would read as a pass.
 */
export const describeOnFanOuts = (
  name: string,
  suite: (mode: FanOutMode) => void,
  { postgresOnly = false }: { postgresOnly?: boolean } = {},
) => {
  describe.skipIf(postgresOnly && !onPostgres).each(fanOutModes)(name, suite);
  if (!natsReachable) {
    describe(name.replaceAll("$name", "nats"), () => {
      it.skip(natsSkipped, () => {});
    });
  }
};

// The built server entry, as production runs it (turbo builds before tests).
const main = new URL("../dist/main.js", import.meta.url);

export type SecondApi = {
  child: ChildProcess;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  port: number;
  /** Opens a socket on a conversation of this process (openSocket). */
  connect(conversationId: string, token: string): Promise<TestSocket>;
};

/**
 * A second API process from the build on `h`'s database and `fanOut`'s fan-out (`env` adds to its
 * environment), resolved once it is ready (its realtime channel open), as another replica of a
 * deployment runs. The caller kills it; if it never gets ready it is killed here.
 */
export const startSecondApi = async (
  h: Harness,
  fanOut: { env: Record<string, string> },
  env: Record<string, string> = {},
): Promise<SecondApi> => {
  const { child, output, exited } = startProcess({
    args: [builtEntry(main)],
    env: {
      APP_ENV: "test",
      LOG_LEVEL: "info",
      DATABASE_URL: h.databaseUrl ?? "",
      TOKEN_SECRET: h.config.tokenSecret,
      HOST: "127.0.0.1",
      PORT: "0",
      WORKER: "off",
      ...env,
      ...fanOut.env,
    },
  });
  try {
    await eventually(() => output().includes("agora api ready"), 20_000);
    const port = Number(/"address":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(output())?.[1]);
    if (!(port > 0)) {
      throw new Error(`the second API logged no address:\n${output()}`);
    }

    const connect = (conversationId: string, token: string) =>
      openSocket(`ws://127.0.0.1:${port}/api/v1/chat/conversations/${conversationId}/realtime`, token);

    return { child, exited, port, connect };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
};
