// Running the image trees as the images would: the Dockerfile's CMD and ENV, as a non-root user on a
// read-only root filesystem where this machine allows it.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { type StartedProcess, startProcess } from "@agora/testing/processes";

export type Isolation = { kind: "sandbox"; describe: string } | { kind: "plain"; describe: string };

const NOBODY = 65534;

/**
 * The sandbox: a private mount namespace whose root is remounted read-only (as `docker run
 * --read-only`), then the command as uid/gid nobody with no supplementary groups.
 */
const SANDBOX_SCRIPT =
  'mount -o remount,bind,ro / && cd "$1" && uid=$2 && shift 2 && exec setpriv --reuid="$uid" --regid="$uid" --clear-groups -- "$@"';

const sandboxed = (cwd: string, argv: string[]): string[] => [
  "unshare",
  "--mount",
  "--propagation",
  "private",
  "sh",
  "-c",
  SANDBOX_SCRIPT,
  "sandbox",
  cwd,
  String(NOBODY),
  ...argv,
];

/**
 * Finds out once whether this machine can run a process as nobody on a read-only root (needs root
 * and mount namespaces, as in CI here). Otherwise processes run plainly, and the tests say so.
 */
export const detectIsolation = (): Isolation => {
  if (process.getuid?.() !== 0) {
    return {
      kind: "plain",
      describe: `as the current user (uid ${process.getuid?.()}), root filesystem writable`,
    };
  }
  // As nobody on the read-only root: print the uid, and fail if /tmp is writable after all.
  const [command = "", ...args] = sandboxed("/", [
    "sh",
    "-c",
    "id -u && ! touch /tmp/.agora-ro-probe 2>/dev/null",
  ]);
  const probe = spawnSync(command, args, { encoding: "utf8" });
  if (probe.status === 0 && probe.stdout.trim() === String(NOBODY)) {
    return { kind: "sandbox", describe: `as uid ${NOBODY} (nobody) on a read-only root filesystem` };
  }

  return {
    kind: "plain",
    describe: `as root: unshare/setpriv unavailable here (${(probe.stderr || probe.stdout).trim().split("\n")[0]})`,
  };
};

/** Starts argv in cwd with exactly env (plus PATH), isolated as `isolation` allows. */
export const startIn = (
  isolation: Isolation,
  cwd: string,
  argv: string[],
  env: Record<string, string>,
): StartedProcess => {
  const [command, ...args] = isolation.kind === "sandbox" ? sandboxed(cwd, argv) : argv;
  if (!command) {
    throw new Error("empty command");
  }

  return startProcess({
    command,
    args,
    cwd,
    env,
    path: `${path.dirname(process.execPath)}:/usr/sbin:/usr/bin:/sbin:/bin`,
  });
};

export const runIn = async (
  isolation: Isolation,
  cwd: string,
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> => {
  const started = startIn(isolation, cwd, argv, env);
  const code = await started.exited;

  return { code, output: started.output() };
};
