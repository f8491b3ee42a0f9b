// Debian's PgBouncer (1.18 on bookworm) in transaction mode, in front of the test server: started
// by a test, in a temporary directory, as the `postgres` OS user when the tests run as root
// (PgBouncer refuses root).
import { execFileSync, spawn } from "node:child_process";
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@agora/testing/processes";

/** The pgbouncer binary (PGBOUNCER, else Debian's), or undefined where it is not installed. */
export const findPgBouncer = (): string | undefined =>
  [process.env.PGBOUNCER, "/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find(
    (file): file is string => file !== undefined && existsSync(file),
  );

export type PgBouncer = {
  /** `base` with the pooler's host and port: the same user and database, through the pooler. */
  through(base: string): string;
  output(): string;
  stop(): Promise<void>;
};

const isRoot = () => process.getuid?.() === 0;

const listening = async (port: number, deadline: number): Promise<void> => {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error("pgbouncer did not listen in time");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * Starts PgBouncer in transaction mode with `poolSize` server connections per database and user,
 * forwarding every database (`*`) to the server of `serverUrl`, trusting the user of that URL.
 * The pool's connection parameters it does not know (our statement and idle-in-transaction
 * timeouts) are ignored, as a deployment must configure them: they do not reach the server.
 */
export const startPgBouncer = async (
  binary: string,
  serverUrl: string,
  { poolSize }: { poolSize: number },
): Promise<PgBouncer> => {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const dir = mkdtempSync(path.join(tmpdir(), "agora-pgbouncer-"));
  const port = await freePort();
  writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || "5432"}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 1000",
      "ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout,options",
      "log_connections = 0",
      "log_disconnections = 0",
      "",
    ].join("\n"),
  );
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    for (const file of [dir, path.join(dir, "users.txt"), path.join(dir, "pgbouncer.ini")]) {
      chownSync(file, uid, gid);
    }
  }
  const ini = path.join(dir, "pgbouncer.ini");
  // Its log goes to a file, not a pipe: a pipe nobody reads while a test blocks (spawnSync) fills
  // and stalls PgBouncer. `-u`: PgBouncer itself drops root for that user (signals reach it).
  const logFile = path.join(dir, "pgbouncer.log");
  const log = openSync(logFile, "w");
  const child = spawn(binary, isRoot() ? ["-u", "postgres", ini] : [ini], { stdio: ["ignore", log, log] });
  closeSync(log);
  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    await Promise.race([
      listening(port, Date.now() + 10_000),
      exited.then(() => {
        throw new Error(`pgbouncer exited at start:\n${output()}`);
      }),
    ]);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    through(base) {
      const url = new URL(base);
      url.hostname = "127.0.0.1";
      url.port = String(port);

      return url.toString();
    },
    output,
    async stop() {
      child.kill("SIGINT");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
