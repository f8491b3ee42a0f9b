import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readDockerfile, repoRoot } from "./support/dockerfile";
import { documentedVariables, envFile, parseYaml, readRepoFile } from "./support/repo-files";

type Service = {
  image?: string;
  build?: { context: string; dockerfile: string; target: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
  read_only?: boolean;
  entrypoint?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
};

const composeText = readRepoFile("infra/docker-compose.yml");
const compose = parseYaml<{ services: Record<string, Service> }>(composeText);
const services = compose.services;
const service = (name: string): Service => {
  const found = services[name];
  if (!found) {
    throw new Error(`infra/docker-compose.yml has no service ${name}`);
  }

  return found;
};
const documented = documentedVariables();
/** How compose writes "the infra/.env value, or this default when it is unset or empty". */
const orDefault = (name: string, fallback: string) => `\${${name}:-${fallback}}`;
const APP_SERVICES = ["migrate", "api-1", "api-2", "worker"];
const API_REPLICAS = ["api-1", "api-2"];

describe("infra/.env.example", () => {
  it("the variables listed in docs/configuration.md are read (the list the checks below rely on)", () => {
    expect(documented.length).toBeGreaterThanOrEqual(39);
    expect(documented).toEqual(expect.arrayContaining(["APP_ENV", "DATABASE_URL", "TOKEN_SECRET", "WORKER"]));
  });

  it("sets every documented variable, and nothing else", () => {
    const example = [...envFile(readRepoFile("infra/.env.example")).keys()].sort();
    expect(example).toEqual(documented);
  });

  it("holds no secret values", () => {
    const example = envFile(readRepoFile("infra/.env.example"));
    for (const name of [
      "TOKEN_SECRET",
      "RESEND_API_KEY",
      "SMTP_PASSWORD",
      "S3_SECRET_ACCESS_KEY",
      "VIDEO_API_SECRET",
    ]) {
      expect({ name, value: example.get(name) }).toEqual({ name, value: "" });
    }
  });
});

describe("infra/docker-compose.yml", () => {
  it("keeps the peers (PostgreSQL, Mailpit, MinIO and its bucket) profile-free for the local flow (docs/development.md)", () => {
    for (const name of ["postgres", "mailpit", "minio", "minio-setup"]) {
      expect(service(name).profiles).toBeUndefined();
    }
    for (const name of [...APP_SERVICES, "proxy"]) {
      expect(service(name).profiles).toEqual(["stack"]);
    }
    // infra/local.env (docs/development.md) reaches the published peers with the stack's credentials and bucket.
    const local = envFile(readRepoFile("infra/local.env"));
    const postgres = service("postgres").environment ?? {};
    expect(local.get("DATABASE_URL")).toBe(
      `postgresql://${postgres.POSTGRES_USER}:${postgres.POSTGRES_PASSWORD}@127.0.0.1:5432/${postgres.POSTGRES_DB}`,
    );
    expect(service("postgres").ports).toContain("127.0.0.1:5432:5432");
    expect(service("minio-setup").entrypoint?.join(" ")).toContain(
      `mc mb --ignore-existing local/${local.get("S3_BUCKET")}`,
    );
    for (const name of local.keys()) {
      expect(documented).toContain(name);
    }
  });

  it("migrates once with the api image, before the API replicas and the worker start", () => {
    const migrate = service("migrate");
    expect(migrate.build?.target).toBe("api");
    expect(migrate.command).toEqual(["node", "dist/cli.js", "migrate"]);
    expect(migrate.restart).toBe("no");
    expect(migrate.depends_on?.postgres).toEqual({ condition: "service_healthy" });
    for (const name of [...API_REPLICAS, "worker"]) {
      expect(service(name).depends_on?.migrate).toEqual({ condition: "service_completed_successfully" });
    }
    for (const name of API_REPLICAS) {
      expect(service(name).depends_on?.["minio-setup"]).toEqual({
        condition: "service_completed_successfully",
      });
    }
  });

  it("runs two API replicas with WORKER=off and one worker from the Dockerfile's targets, on read-only roots", () => {
    const dockerfile = readDockerfile();
    for (const name of API_REPLICAS) {
      const replica = service(name);
      expect(replica.build).toEqual({ context: "..", dockerfile: "infra/Dockerfile", target: "api" });
      expect(replica.command).toBeUndefined(); // the image's CMD: serve only
      expect(replica.environment?.WORKER).toBe("off");
      expect(replica.environment?.TRUST_PROXY).toBe("true");
      expect(replica.read_only).toBe(true);
    }
    // The image's HEALTHCHECK is what the proxy waits for.
    expect(dockerfile.target("api").healthcheck?.kind).toBe("cmd");
    const worker = service("worker");
    expect(worker.build?.target).toBe("worker");
    expect(worker.read_only).toBe(true);
    expect(Object.keys(services).filter((name) => services[name]?.build?.target === "worker")).toEqual([
      "worker",
    ]);
    for (const target of ["api", "worker"]) {
      expect(() => dockerfile.stage(target)).not.toThrow();
    }
  });

  it("gives the app services only documented variables, and documents every variable it interpolates from .env", () => {
    for (const name of APP_SERVICES) {
      for (const variable of Object.keys(service(name).environment ?? {})) {
        expect({ service: name, variable, documented: documented.includes(variable) }).toMatchObject({
          documented: true,
        });
      }
    }
    const interpolated = [...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1] ?? "");
    expect(interpolated.length).toBeGreaterThan(0);
    expect(interpolated.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it("offers NATS as an optional broker (profile nats) and wires the replicas' fan-out to it, PostgreSQL's by default", () => {
    const nats = service("nats");
    expect(nats.profiles).toEqual(["nats"]);
    // Pinned, like every other image here; core pub/sub only, so nothing to keep (no volume).
    expect(nats.image).toMatch(/^nats:\d+\.\d+\.\d+-alpine$/);
    expect(nats.volumes).toBeUndefined();
    expect(nats.command).toEqual(["nats-server", "--port", "4222", "--http_port", "8222"]);
    expect(nats.ports).toEqual(["127.0.0.1:4222:4222", "127.0.0.1:8222:8222"]);
    expect(nats.healthcheck?.test.join(" ")).toContain("http://127.0.0.1:8222/healthz");
    for (const name of API_REPLICAS) {
      expect(service(name).environment).toMatchObject({
        REALTIME_FANOUT: orDefault("REALTIME_FANOUT", "postgres"),
        NATS_URL: orDefault("NATS_URL", "nats://nats:4222"),
        NATS_SUBJECT: orDefault("NATS_SUBJECT", "agora.chat"),
      });
      // Still an API replica: the fan-out's settings joined the shared ones, they did not replace them.
      expect(service(name).environment?.DATABASE_URL).toBe(service("migrate").environment?.DATABASE_URL);
      // The broker is optional: no replica waits for a service its profile may leave out.
      expect(service(name).depends_on?.nats).toBeUndefined();
    }
    // The worker and the migration publish and hear no chat signal.
    for (const name of ["migrate", "worker"]) {
      expect(service(name).environment?.REALTIME_FANOUT).toBeUndefined();
    }
    // infra/.env.example leaves NATS_URL empty, and compose's `:-` default covers an empty value too.
    expect(envFile(readRepoFile("infra/.env.example")).get("NATS_URL")).toBe("");
  });

  it("puts nginx in front of both replicas, passing WebSocket upgrades", () => {
    const proxy = service("proxy");
    expect(proxy.volumes).toContain("./nginx.conf:/etc/nginx/nginx.conf:ro");
    for (const name of API_REPLICAS) {
      expect(proxy.depends_on?.[name]).toEqual({ condition: "service_healthy" });
    }
    const nginx = readRepoFile("infra/nginx.conf");
    const upstream = /upstream agora_api \{([^}]*)\}/.exec(nginx)?.[1] ?? "";
    const servers = [...upstream.matchAll(/server ([\w.-]+):(\d+)/g)].map(
      (match) => `${match[1]}:${match[2]}`,
    );
    expect(servers).toEqual(API_REPLICAS.map((name) => `${name}:8080`));
    expect(nginx).toMatch(/proxy_pass http:\/\/agora_api;/);
    expect(nginx).toMatch(/proxy_http_version 1\.1;/);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    expect(nginx).toMatch(/map \$http_upgrade \$connection_upgrade \{\s*default upgrade;/);
    expect(nginx).toMatch(/proxy_read_timeout 1h;/);
  });

  const composeCli = ["docker compose", "docker-compose"].find(
    (cli) => spawnSync("sh", ["-c", `${cli} version`], { stdio: "ignore" }).status === 0,
  );
  it.skipIf(!composeCli)(
    composeCli
      ? `is valid for ${composeCli} with the stack and nats profiles`
      : "is valid for a compose CLI with the stack and nats profiles (skipped: neither docker compose nor docker-compose is installed)",
    () => {
      const result = spawnSync(
        "sh",
        ["-c", `${composeCli} -f infra/docker-compose.yml --profile stack --profile nats config --quiet`],
        { cwd: repoRoot, encoding: "utf8" },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
    },
  );
});

describe("infra/nginx.conf", () => {
  const nginx = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  it.skipIf(!nginx)(
    "passes nginx -t with the replicas on loopback (skipped: no nginx on this machine)",
    () => {
      // The replicas' names resolve only inside the compose network.
      const config = readRepoFile("infra/nginx.conf").replace(
        /server api-(\d):8080/g,
        "server 127.0.0.1:1808$1",
      );
      const dir = mkdtempSync(path.join(tmpdir(), "agora-nginx-"));
      try {
        writeFileSync(path.join(dir, "nginx.conf"), config);
        const result = spawnSync(
          nginx,
          ["-t", "-e", "stderr", "-p", dir, "-c", path.join(dir, "nginx.conf")],
          {
            encoding: "utf8",
          },
        );
        expect(result.stderr).toContain("test is successful");
        expect(result.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
