// nginx in front of the proof's API processes, configured from the compose stack's own
// infra/nginx.conf, its output to a file in the run's directory as the other processes' (their
// start, wait and stop are bench/src/common.ts's).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Managed, startManaged } from "../common.ts";

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
