import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dockerfilePath, parseDockerfile, repoRoot } from "./support/dockerfile";
import { type LintContext, lintDockerfile } from "./support/dockerfile-lint";

const text = readFileSync(dockerfilePath, "utf8");
const ciRun = readFileSync(path.join(repoRoot, ".ci", "run"), "utf8");
const rootPackage = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  packageManager: string;
};

const context: LintContext = {
  targets: ["api", "worker"],
  nodeVersion: /^NODE_VERSION=(\S+)$/m.exec(ciRun)?.[1] ?? "(NODE_VERSION missing from .ci/run)",
  pnpmVersion: rootPackage.packageManager.replace(/^pnpm@/, ""),
};

const replace = (from: string | RegExp, to: string) => (source: string) => {
  const next = source.replace(from, to);
  if (next === source) {
    throw new Error(`mutation did not apply: ${String(from)}`);
  }

  return next;
};

describe("infra/Dockerfile", () => {
  it("passes dockerfile-utils' validator and the project's rules", () => {
    expect(lintDockerfile(text, context)).toEqual([]);
  });

  // Each rule must be able to fail: the same file with one thing broken is reported.
  it.each([
    [
      "an unpinned base tag",
      replace(/^ARG NODE_IMAGE=.*$/m, "ARG NODE_IMAGE=node:24-bookworm-slim"),
      "pinned to a full version",
    ],
    ["a latest base", replace(/^ARG NODE_IMAGE=.*$/m, "ARG NODE_IMAGE=node:latest"), "not latest"],
    [
      "another Node.js than .ci/run's",
      replace(/^ARG NODE_IMAGE=.*$/m, "ARG NODE_IMAGE=node:22.12.0-bookworm-slim"),
      "is not Node.js",
    ],
    [
      "pnpm drifting from packageManager",
      replace(/PNPM_VERSION=[\d.]+/, "PNPM_VERSION=10.0.0"),
      "PNPM_VERSION",
    ],
    ["USER root", replace("USER 1000:1000", "USER root"), "is root"],
    ["no USER", replace("USER 1000:1000\n", ""), "no USER"],
    [
      "a secret in ENV",
      replace("WORKDIR /app\n", "ENV TOKEN_SECRET=not-here\nWORKDIR /app\n"),
      "never go in ENV",
    ],
    [
      "a secret ARG",
      replace("WORKDIR /app\n", "ARG S3_SECRET_ACCESS_KEY\nWORKDIR /app\n"),
      "never go in ENV",
    ],
    [
      "a URL with a password",
      replace("WORKDIR /app\n", "ENV PEER=postgresql://agora:hunter2@db/agora\nWORKDIR /app\n"),
      "a URL with a password",
    ],
    [
      "a curl health check",
      replace(
        /HEALTHCHECK --interval[^\n]*\\\n[^\n]*\n/,
        'HEALTHCHECK CMD ["curl", "-f", "http://127.0.0.1:8080/health"]\n',
      ),
      "curl",
    ],
    [
      "a target without HEALTHCHECK",
      // The first HEALTHCHECK is the worker's.
      replace(/HEALTHCHECK --interval[^\n]*\\\n[^\n]*\n/, ""),
      "target worker: no HEALTHCHECK",
    ],
    [
      "a shell-form CMD",
      replace(
        /CMD \["node", "--heap-growing-percent=50", "dist\/main\.js"\]\s*$/,
        "CMD node --heap-growing-percent=50 dist/main.js\n",
      ),
      "exec form",
    ],
    [
      "code owned by the runtime user",
      replace("COPY --from=build-api /out /app", "COPY --from=build-api --chown=1000:1000 /out /app"),
      "--chown",
    ],
    [
      "the api image taking the worker's tree",
      replace("COPY --from=build-api /out /app", "COPY --from=build-worker /out /app"),
      "builds worker",
    ],
    [
      "a HEALTHCHECK option the builder rejects",
      replace("--interval=15s", "--interval=soon"),
      "invalid duration",
    ],
    ["an unknown instruction", replace("WORKDIR /app\n", "WORKDIR /app\nCOPYY . .\n"), "Unknown instruction"],
  ])("reports %s", (_name, mutate, expected) => {
    expect(lintDockerfile(mutate(text), context)).toContainEqual(expect.stringContaining(expected));
  });

  it("runs node dist/main.js behind tini as uid 1000, in production mode, from a root-owned /app", () => {
    const parsed = parseDockerfile(text);
    // The API's old generation grows as in a small container, whatever the host (docs/performance.md, "Memory").
    const cmds: Record<string, string[]> = {
      api: ["node", "--heap-growing-percent=50", "dist/main.js"],
      worker: ["node", "dist/main.js"],
    };
    for (const name of ["api", "worker"]) {
      const target = parsed.target(name);
      expect(target.entrypoint).toEqual(["/usr/bin/tini", "--"]);
      expect(target.cmd).toEqual(cmds[name]);
      expect(target.user).toBe("1000:1000");
      expect(target.workdir).toBe("/app");
      expect(target.env).toMatchObject({ NODE_ENV: "production", APP_ENV: "production", PORT: "8080" });
      expect(target.copiesFrom).toEqual([
        { stage: `build-${name}`, sources: ["/out"], destination: "/app", chown: undefined },
      ]);
    }
    expect(parsed.target("api").healthcheck).toMatchObject({
      kind: "cmd",
      argv: ["node", "-e", expect.stringContaining("/health")],
    });
    expect(parsed.target("worker").healthcheck).toMatchObject({
      kind: "cmd",
      argv: ["node", "-e", expect.stringContaining("WORKER_HEALTH_PORT")],
    });
    expect(parsed.target("worker").env).toMatchObject({ WORKER_HEALTH_PORT: "9091" });
    // A build without --target gives the API image.
    expect(parsed.stages.at(-1)?.name).toBe("api");
  });

  it("keeps installs, build output, git metadata and env files out of the build context", () => {
    const ignored = readFileSync(path.join(repoRoot, ".dockerignore"), "utf8").split("\n");
    for (const pattern of ["**/node_modules", "**/dist", ".git", ".env", "packages/db/src/generated"]) {
      expect(ignored).toContain(pattern);
    }
  });
});
