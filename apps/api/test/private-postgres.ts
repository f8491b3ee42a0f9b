// A PostgreSQL server of a test's own, in a temporary directory: started, stopped and restarted at
// will, which a shared server cannot be. Runs as the `postgres` OS user when the tests run as root
// (initdb and postgres refuse root).
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@agora/testing/processes";

/** Where initdb and pg_ctl live: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export const findPostgresBin = (): string | undefined => {
  const explicit = process.env.PG_BIN;
  if (explicit) {
    return existsSync(path.join(explicit, "initdb")) ? explicit : undefined;
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) {
    return undefined;
  }
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));

  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
};

const isRoot = () => process.getuid?.() === 0;

export type PrivatePostgres = {
  url: string;
  port: number;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: connections are terminated, the server shuts down. */
  stop(): Promise<void>;
  /** Stops it for good and removes its directory. */
  destroy(): Promise<void>;
};

/** initdb into a new temporary directory (not started). */
export const createPrivatePostgres = async (bin: string): Promise<PrivatePostgres> => {
  const dir = mkdtempSync(path.join(tmpdir(), "agora-pg-"));
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const asOwner = (command: string, args: string[]): [string, string[]] => {
    const file = path.join(bin, command);

    return isRoot() ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  };
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [file, argv] = asOwner(command, args);
      const child = spawn(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        output += chunk.toString("utf8");
      });
      child.on("error", reject);
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${output.slice(-500)}`)),
      );
    });

  await run("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;

  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () =>
      run("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(dir, "server.log"), "-w", "start"]),
    stop: () => run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]),
    async destroy() {
      await run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
