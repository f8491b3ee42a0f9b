// A child process as the tests drive them (the built API, the worker, an image tree): exactly the
// environment given, its output collected, its JSON log lines parsed, its exit awaited.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export type StartedProcess = {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its JSON log lines so far. */
  lines(): Array<Record<string, unknown>>;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
};

export type ProcessOptions = {
  /** The program; node (this test's) by default. */
  command?: string;
  args: readonly string[];
  /** The whole environment besides PATH: nothing of the test's own leaks in. */
  env: Record<string, string>;
  /** PATH; the test's own by default. */
  path?: string;
  cwd?: string;
};

/** Starts a process with exactly `env` (plus PATH) and collects its output. */
export const startProcess = ({
  command = process.execPath,
  args,
  env,
  path = process.env.PATH ?? "",
  cwd,
}: ProcessOptions): StartedProcess => {
  const child = spawn(command, [...args], {
    cwd,
    env: { PATH: path, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  return {
    child,
    output: () => output,
    lines: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    exited,
  };
};

/**
 * The path of a built entry point (`new URL("../dist/main.js", import.meta.url)`), as production
 * runs it; a clear error when the build is missing (turbo builds before `pnpm test`).
 */
export const builtEntry = (entry: URL | string): string => {
  const file = typeof entry === "string" ? entry : fileURLToPath(entry);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run \`pnpm build\` (turbo runs it before \`pnpm test\`)`);
  }

  return file;
};

/**
 * A TCP port on 127.0.0.1 free when asked (the OS picks it; the probe socket is closed before this
 * resolves): for a process started on it, or an address that must be known before a server starts.
 */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
