// The built API (`node dist/main.js`, as production runs it) as a child process, and what tests that
// drive it from outside need: its log lines, an access token for a user written straight to the
// database, and "is this process waiting on a row lock yet" from pg_stat_activity.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SignJWT } from "jose";
import type pg from "pg";

export const mainJs = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value (or fails after `timeoutMs`). */
export const eventually = async <T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await sleep(25);
  }
};

export type ApiProcess = {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
  /** Its JSON log lines. */
  lines(): Array<Record<string, unknown>>;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves with its base URL once it logged "agora api listening". */
  origin(): Promise<string>;
};

/** Starts `node <entry>` with exactly `env` (plus PATH) and collects its output. */
export const startProcess = (env: Record<string, string>, entry = mainJs, nodeArgs: string[] = []) => {
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: run \`pnpm build\` (turbo runs it before \`pnpm test\`)`);
  }
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const lines = () =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  const started: ApiProcess = {
    child,
    output: () => output,
    lines,
    exited,
    origin: () =>
      eventually(() => {
        if (child.exitCode !== null) {
          throw new Error(`exited ${child.exitCode}:\n${output}`);
        }

        return lines().find((line) => line.msg === "agora api listening")?.address as string | undefined;
      }),
  };

  return started;
};

export const TEST_TOKEN_SECRET = "process-test-secret-process-test-secret-0123456789";

/**
 * An active, verified member with a live session, and an access token as the API signs them
 * (written through a pg client, or a Database's `sql` when the API is not running on it yet).
 */
export const createMember = async (
  client: { query(text: string, params: unknown[]): Promise<unknown> },
  secret = TEST_TOKEN_SECRET,
) => {
  const id = randomUUID();
  const sessionId = randomUUID();
  await client.query(
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'Process Test', '', 'member', 'active', now(), now(), now())`,
    [id, `${id}@example.com`, `p${id.replaceAll("-", "").slice(0, 20)}`],
  );
  await client.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, now())", [
    sessionId,
    id,
  ]);
  const token = await new SignJWT({ role: "member", sid: sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(id)
    .setIssuer("agora")
    .setAudience("agora-api")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));

  return { id, token };
};

/** Waits until a backend of `applicationName` waits on a lock (a statement stuck behind ours). */
export const waitForLockWait = (client: pg.Client, applicationName: string) =>
  eventually(async () => {
    const { rows } = await client.query(
      "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
      [applicationName],
    );

    return rows.length > 0 ? true : undefined;
  });
