// The built API (`node dist/main.js`, as production runs it) as a child process (@agora/testing's
// startProcess), and what tests that drive it from outside need: its address, an access token for
// a user written straight to the database, and "is this process waiting on a row lock yet".
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { eventually } from "@agora/testing/eventually";
import { builtEntry, type StartedProcess, startProcess as startChild } from "@agora/testing/processes";
import { SignJWT } from "jose";
import type pg from "pg";

export const mainJs = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export type ApiProcess = StartedProcess & {
  /** Resolves with its base URL once it logged "agora api listening". */
  origin(): Promise<string>;
};

/** Starts `node <entry>` with exactly `env` (plus PATH) and collects its output. */
export const startProcess = (
  env: Record<string, string>,
  entry = mainJs,
  nodeArgs: string[] = [],
): ApiProcess => {
  const started = startChild({ args: [...nodeArgs, builtEntry(entry)], env });

  return {
    ...started,
    origin: () =>
      eventually(() => {
        if (started.child.exitCode !== null) {
          throw new Error(`exited ${started.child.exitCode}:\n${started.output()}`);
        }

        return started.lines().find((line) => line.msg === "agora api listening")?.address as
          | string
          | undefined;
      }),
  };
};

export const TEST_TOKEN_SECRET = "process-test-secret-process-test-secret-0123456789";

/**
 * An active, verified member with a live session, and an access token (written through a pg
 * client, or a Database's `sql` when the API is not running on it yet). The token is signed with
 * the raw secret, the legacy key: the previous release (previous-release.int.test.ts) verifies
 * only that, and this tree accepts it during the transition
 * (packages/domain/src/common/derived-keys.ts); sign under the derived key when that ends.
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
