// The restore drill (docs/operations.md, "Backups that restore"): data written through the API (an
// order, a chat, a media asset, audit events) is backed up, restored into a fresh database, and the built API started on
// the restored one (`node dist/main.js`, as production runs it) answers the same reads with the same
// bodies. On PGlite the backup is `pnpm agora backup` / `restore` (the built CLI); on PostgreSQL it
// is pg_dump / pg_restore (Debian's postgresql-client), as the runbook says.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEmptyPostgresDatabase, onPostgres } from "@agora/db/test/databases";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../test/harness";
import { type ApiProcess, startProcess } from "../test/processes";
import { type LocalS3, startLocalS3, uploadMedia } from "../test/s3";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** Runs a program to its end: exit code and output. */
const run = (command: string, args: string[], env: Record<string, string> = {}) => {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
    timeout: 120_000,
  });

  return { code: result.status, stdout: result.stdout, stderr: result.stderr ?? String(result.error ?? "") };
};
const agora = (args: string[], dataDir: string) =>
  run(process.execPath, [cli, ...args], { DATA_DIR: dataDir });

/** Several processes start and a database is copied twice: minutes on a loaded machine. */
const DRILL_TIMEOUT_MS = 180_000;

type Reads = Record<string, { status: number; body: unknown }>;

/** A response's body without its envelope's request id (each request has its own). */
const content = (body: unknown) => {
  const { request_id: _, ...rest } = body as Record<string, unknown>;

  return rest;
};

describe(`restore drill on ${onPostgres ? "PostgreSQL (pg_dump / pg_restore)" : "PGlite (pnpm agora backup / restore)"}`, () => {
  let workDir: string;
  let s3: LocalS3;
  let h: Harness | undefined;
  let api: ApiProcess | undefined;
  let dropRestored: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (!existsSync(cli)) {
      throw new Error("apps/api/dist is missing: run `pnpm build` (turbo runs it before `pnpm test`)");
    }
    workDir = mkdtempSync(path.join(tmpdir(), "agora-drill-"));
    s3 = await startLocalS3();
  });
  afterAll(async () => {
    api?.child.kill("SIGKILL");
    await api?.exited;
    await h?.close();
    await dropRestored?.();
    await s3?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it(
    "reads back the orders, the chat, the media rows and the audit events from the restored database",
    async () => {
      const sourceDataDir = path.join(workDir, "source");
      h = await createHarness({
        config: { s3: s3.config },
        pgliteDataDir: path.join(sourceDataDir, "pglite"),
      });
      const harness = h;
      const tokenSecret = harness.config.tokenSecret;
      const buyer = await harness.signIn();
      const admin = await harness.signIn({ role: "admin" });
      const shop = await harness.orderable();
      const as = (who: SignedIn) => ({ token: who.accessToken });

      // Seeded through the API.
      const placed = await harness.post<{ data: { id: string } }>(
        "/api/v1/orders",
        { menu_item_id: shop.itemId, quantity: 3 },
        { ...as(buyer), headers: { "idempotency-key": "drill-order" } },
      );
      expect(placed.status).toBe(201);
      const conversation = await harness.post<{ data: { id: string } }>(
        "/api/v1/chat/conversations",
        { other_user_id: shop.seller.user.id },
        as(buyer),
      );
      expect(conversation.status).toBe(201);
      for (const [who, body] of [
        [buyer, "Are the dumplings vegetarian?"],
        [shop.seller, "Half of them, yes."],
      ] as const) {
        expect(
          (
            await harness.post(
              `/api/v1/chat/conversations/${conversation.body.data.id}/messages`,
              { body },
              as(who),
            )
          ).status,
        ).toBe(201);
      }
      const media = await uploadMedia(harness, buyer.accessToken, { mimeType: "image/png" });
      expect(media.storeStatus).toBe(200);
      expect((await harness.post(`/api/v1/media/${media.id}/confirm`, undefined, as(buyer))).status).toBe(
        200,
      );
      // Processed by the worker: the row is ready and its served copy in the store.
      await harness.runOutboxOnce();
      expect(
        (await harness.patch(`/api/v1/admin/users/${buyer.user.id}/role`, { role: "provider" }, as(admin)))
          .status,
      ).toBe(200);
      expect(
        (await harness.patch(`/api/v1/admin/users/${buyer.user.id}/role`, { role: "member" }, as(admin)))
          .status,
      ).toBe(200);

      const reads: Array<[string, string, SignedIn]> = [
        ["order", `/api/v1/orders/${placed.body.data.id}`, buyer],
        ["orders", "/api/v1/orders", shop.seller],
        ["conversations", "/api/v1/chat/conversations", buyer],
        ["messages", `/api/v1/chat/conversations/${conversation.body.data.id}/messages`, shop.seller],
        ["audit", `/api/v1/admin/audit?target_id=${buyer.user.id}`, admin],
      ];
      const before: Reads = {};
      for (const [name, url, who] of reads) {
        const res = await harness.get(url, as(who));
        before[name] = { status: res.status, body: content(res.body) };
      }
      expect((before.audit?.body as { data: unknown[] } | undefined)?.data).toHaveLength(2);
      const mediaBefore = (
        await harness.get<{ data: Record<string, unknown> }>(`/api/v1/media/${media.id}`, as(buyer))
      ).body.data;
      expect(mediaBefore.status).toBe("ready");
      const served = Buffer.from(await (await fetch(String(mediaBefore.url))).arrayBuffer());

      // Backed up, the source closed, restored into a fresh database.
      const restoredDataDir = path.join(workDir, "restored");
      let databaseEnv: Record<string, string>;
      if (onPostgres) {
        const dump = path.join(workDir, "agora.dump");
        const dumped = run("pg_dump", [
          "--format=custom",
          "--no-owner",
          "--file",
          dump,
          harness.databaseUrl ?? "",
        ]);
        expect(dumped.stderr).toBe("");
        expect(dumped.code).toBe(0);
        await harness.close();
        h = undefined;
        const fresh = await createEmptyPostgresDatabase();
        dropRestored = fresh.drop;
        const restored = run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", fresh.url, dump]);
        expect(restored.stderr).toBe("");
        expect(restored.code).toBe(0);
        databaseEnv = { DATABASE_URL: fresh.url };
      } else {
        await harness.close();
        h = undefined;
        const file = path.join(workDir, "agora-backup.tgz");
        const backedUp = agora(["backup", file], sourceDataDir);
        expect(backedUp.stderr).toBe("");
        expect(backedUp.code).toBe(0);
        expect(backedUp.stdout).toMatch(/^backup: .* written to .*agora-backup\.tgz \(\d+ bytes\)/);
        mkdirSync(restoredDataDir);
        const restored = agora(["restore", file], restoredDataDir);
        expect(restored.stderr).toBe("");
        expect(restored.code).toBe(0);
        expect(restored.stdout).toMatch(
          /^restore: .* restored into .*restored\/pglite \(\d+ migrations recorded\)\n$/,
        );
        databaseEnv = {};
      }

      // The built API on the restored database reads the same data back.
      api = startProcess({
        APP_ENV: "development",
        ...databaseEnv,
        DATA_DIR: restoredDataDir,
        TOKEN_SECRET: tokenSecret,
        HOST: "127.0.0.1",
        PORT: "0",
        WORKER: "off",
        LOG_LEVEL: "info",
        S3_ENDPOINT: s3.config.endpoint,
        S3_REGION: s3.config.region,
        S3_BUCKET: s3.config.bucket,
        S3_ACCESS_KEY_ID: s3.config.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
      });
      const origin = await api.origin();
      const ready = await fetch(`${origin}/ready`);
      expect(ready.status, await ready.text()).toBe(200);
      const after: Reads = {};
      for (const [name, url, who] of reads) {
        const res = await fetch(`${origin}${url}`, {
          headers: { authorization: `Bearer ${who.accessToken}` },
        });
        after[name] = { status: res.status, body: content(await res.json()) };
      }
      expect(after).toEqual(before);
      const mediaAfter = await fetch(`${origin}/api/v1/media/${media.id}`, {
        headers: { authorization: `Bearer ${buyer.accessToken}` },
      });
      expect(mediaAfter.status).toBe(200);
      const mediaRead = ((await mediaAfter.json()) as { data: Record<string, unknown> }).data;
      expect(mediaRead).toMatchObject({
        id: mediaBefore.id,
        mime_type: mediaBefore.mime_type,
        size_bytes: mediaBefore.size_bytes,
        status: "ready",
      });
      const bytes = await fetch(String(mediaRead.url));
      expect(Buffer.from(await bytes.arrayBuffer())).toEqual(served);
    },
    DRILL_TIMEOUT_MS,
  );

  it.skipIf(onPostgres)(
    "restore refuses a non-empty data directory unless --force, which keeps the replaced database aside; a file that is no backup changes nothing (PGlite only: the verbs are the embedded database's; PostgreSQL uses pg_restore)",
    async () => {
      const file = path.join(workDir, "agora-backup.tgz");
      const target = path.join(workDir, "occupied");
      mkdirSync(target);
      expect(agora(["restore", file], target).code).toBe(0);

      const refused = agora(["restore", file], target);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^agora restore: .*occupied\/pglite is not empty: .*--force/);

      const forced = agora(["restore", file, "--force"], target);
      expect(forced.stderr).toBe("");
      expect(forced.code).toBe(0);
      const keptAside = forced.stdout.match(/kept at (\S+)\n$/)?.[1] ?? "";
      expect(existsSync(path.join(keptAside, "PG_VERSION"))).toBe(true);
      expect(existsSync(path.join(target, "pglite", "PG_VERSION"))).toBe(true);

      const notABackup = agora(["restore", cli], path.join(workDir, "other"));
      expect(notABackup.code).toBe(1);
      expect(notABackup.stderr).toMatch(/is not a backup of Agora's embedded database/);
      expect(existsSync(path.join(workDir, "other", "pglite"))).toBe(false);

      const twice = agora(["backup", file], path.join(workDir, "restored"));
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/exists: choose another file name/);
    },
    DRILL_TIMEOUT_MS,
  );
});
