// The processes of the proof: API processes (`node apps/api/dist/main.js`, WORKER=off), outbox
// workers (`node apps/worker/dist/main.js`) and nginx in front of the APIs, configured from the
// compose stack's own infra/nginx.conf. Each writes its output to a file in the run's directory.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

export type Managed = {
  name: string;
  child: ChildProcess;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** The last lines it wrote (for failures). */
  tail(lines?: number): string;
};

/** Starts `command` with its output appended to `<dir>/<name>.log`. */
export const startManaged = (
  name: string,
  command: string[],
  env: Record<string, string>,
  { dir, cwd }: { dir: string; cwd: string },
): Managed => {
  const logFile = path.join(dir, `${name}.log`);
  const fd = openSync(logFile, "a");
  const [file = "", ...args] = command;
  const child = spawn(file, args, { cwd, env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  return {
    name,
    child,
    exited,
    tail: (lines = 20) =>
      existsSync(logFile) ? readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n") : "",
  };
};

/** Polls `url` until it answers 200 (or fails after `timeoutMs`, or when `process` exits). */
export const waitFor200 = async (url: string, process?: Managed, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process && process.child.exitCode !== null) {
      throw new Error(`${process.name} exited with ${process.child.exitCode}:\n${process.tail()}`);
    }
    const status = await fetch(url)
      .then(async (response) => {
        await response.arrayBuffer();

        return response.status;
      })
      .catch(() => 0);
    if (status === 200) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} did not answer 200 in time${process ? `:\n${process.tail()}` : ""}`);
    }
    await sleep(100);
  }
};

/** nginx from PATH or the usual places (PROOF_NGINX overrides); undefined when not installed. */
export const findNginx = (override?: string): string | undefined => {
  const candidates = [override, "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"];
  const onPath = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();

  return [...candidates, onPath].find(
    (candidate): candidate is string => Boolean(candidate) && existsSync(candidate ?? ""),
  );
};

/**
 * infra/nginx.conf, made to run unprivileged on loopback: the upstream servers become the given
 * ports, it listens on `port`, and pid, error log and temporary files go to `dir`. Everything
 * else (round-robin, WebSocket upgrades, keep-alive to the upstreams, `proxy_next_upstream`,
 * max_fails) is the compose stack's configuration as it is.
 */
export const nginxConfig = (
  source: string,
  { upstreams, port, dir }: { upstreams: number[]; port: number; dir: string },
) => {
  const replace = (text: string, pattern: RegExp, replacement: string) => {
    if (!pattern.test(text)) {
      throw new Error(`infra/nginx.conf changed: ${pattern} not found`);
    }

    return text.replace(pattern, replacement);
  };
  let config = replace(
    source,
    /^pid [^;]+;/m,
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;`,
  );
  // As root (CI), workers would switch to an unprivileged user that cannot use the temp dir.
  if (process.getuid?.() === 0) {
    config = `user root;\n${config}`;
  }
  const servers = [...config.matchAll(/^(\s*)server api-\d+:8080( [^;]*);/gm)];
  if (servers.length !== upstreams.length) {
    throw new Error(
      `infra/nginx.conf has ${servers.length} upstream servers, the proof runs ${upstreams.length}`,
    );
  }
  for (const upstream of upstreams) {
    config = config.replace(/^(\s*)server api-\d+:8080( [^;]*);/m, `$1server 127.0.0.1:${upstream}$2;`);
  }
  config = replace(config, /listen 8080;/, `listen 127.0.0.1:${port};`);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `  ${kind}_temp_path ${dir}/temp-${kind};`)
    .join("\n");
  config = replace(config, /^http \{$/m, `http {\n${temp}`);

  return config;
};

export const startNginx = (
  binary: string,
  { source, upstreams, port, dir }: { source: string; upstreams: number[]; port: number; dir: string },
): Managed => {
  const confDir = path.join(dir, "nginx");
  mkdirSync(confDir, { recursive: true });
  const confFile = path.join(confDir, "nginx.conf");
  writeFileSync(confFile, nginxConfig(source, { upstreams, port, dir: confDir }));

  return startManaged(
    "nginx",
    [binary, "-p", confDir, "-c", confFile, "-e", path.join(confDir, "nginx-error.log"), "-g", "daemon off;"],
    { PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin" },
    { dir, cwd: confDir },
  );
};

/** Stops `process` with `signal` and waits for its exit code. */
export const stop = async (process: Managed, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> => {
  if (process.child.exitCode === null && process.child.signalCode === null) {
    process.child.kill(signal);
  }

  return process.exited;
};
