// kill -9 of the API on the embedded database (docs/operations.md, "Backups that restore"): the
// built API (`node dist/main.js`) on a PGlite data directory takes chat messages from several concurrent
// senders; it is killed with SIGKILL while requests are in flight, started again on the same
// directory, and every message it had answered 201 for is read back through the API.

import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@agora/db/client";
import { migrate } from "@agora/db/migrator";
import { onPostgres } from "@agora/db/test/databases";
import { eventually } from "@agora/testing/eventually";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiProcess, createMember, startProcess, TEST_TOKEN_SECRET } from "../test/processes";

/** Messages answered 201 before the kill: enough that it lands in the middle of a stream. */
const ACKNOWLEDGED_BEFORE_KILL = 60;
const SENDERS = 6;
/** Two processes start, and writes run on a loaded machine. */
const TIMEOUT_MS = 180_000;

type Message = { id: string; seq: number; body: string };

describe.skipIf(onPostgres)(
  "kill -9 of the API on the embedded database (PGlite only: PostgreSQL's durability is its server's, fsync and WAL)",
  () => {
    let workDir: string;
    let api: ApiProcess | undefined;

    beforeAll(() => {
      workDir = mkdtempSync(path.join(tmpdir(), "agora-kill9-"));
    });
    afterAll(async () => {
      if (api && api.child.exitCode === null && api.child.signalCode === null) {
        api.child.kill("SIGKILL");
        await api.exited;
      }
      rmSync(workDir, { recursive: true, force: true });
    });

    it(
      "loses no write it acknowledged: every message answered 201 before SIGKILL is there after the restart",
      async () => {
        // Two members and their conversation, written before the API owns the directory.
        const database = await openDatabase({ dataDir: path.join(workDir, "pglite") });
        await migrate(database.sql);
        const ada = await createMember(database.sql);
        const bob = await createMember(database.sql);
        const conversationId = randomUUID();
        const [low, high] = [ada.id, bob.id].sort();
        await database.sql.query(
          "INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at) VALUES ($1, $2, $3, now(), now())",
          [conversationId, low, high],
        );
        await database.close();

        const env = {
          APP_ENV: "development",
          DATA_DIR: workDir,
          TOKEN_SECRET: TEST_TOKEN_SECRET,
          HOST: "127.0.0.1",
          PORT: "0",
          WORKER: "embedded",
          LOG_LEVEL: "info",
        };
        api = startProcess(env);
        const origin = await api.origin();
        const messagesUrl = `${origin}/api/v1/chat/conversations/${conversationId}/messages`;

        const acknowledged: Message[] = [];
        let inFlight = 0;
        let inFlightAtKill = -1;
        let killed = false;
        const sender = async (index: number) => {
          const who = index % 2 === 0 ? ada : bob;
          for (let n = 0; !killed; n += 1) {
            inFlight += 1;
            try {
              const res = await fetch(messagesUrl, {
                method: "POST",
                headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" },
                body: JSON.stringify({ body: `sender ${index} message ${n}` }),
              });
              if (res.status === 201) {
                acknowledged.push(((await res.json()) as { data: Message }).data);
              } else if (!killed) {
                throw new Error(`a send answered ${res.status}: ${await res.text()}`);
              }
            } catch (error) {
              if (!killed) {
                throw error;
              }
            } finally {
              inFlight -= 1;
            }
            if (acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL && !killed) {
              killed = true;
              inFlightAtKill = inFlight;
              api?.child.kill("SIGKILL");
            }
          }
        };
        await Promise.all(Array.from({ length: SENDERS }, (_, index) => sender(index)));
        expect(await api.exited).toBeNull();
        expect(api.child.signalCode).toBe("SIGKILL");
        // The other senders' requests were still open when the process died.
        expect(inFlightAtKill).toBeGreaterThan(0);
        const answered = [...acknowledged];
        expect(answered.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);

        // Started again on the same directory (the dead process's lock file is taken over).
        api = startProcess(env);
        const again = await api.origin();
        await eventually(
          async () => ((await fetch(`${again}/ready`)).status === 200 ? true : undefined),
          60_000,
        );
        const stored: Message[] = [];
        for (let after = 0, more = true; more; ) {
          const res = await fetch(
            `${again}/api/v1/chat/conversations/${conversationId}/messages?after=${after}`,
            {
              headers: { authorization: `Bearer ${ada.token}` },
            },
          );
          expect(res.status).toBe(200);
          const page = (await res.json()) as { data: Message[]; meta: { has_more: boolean } };
          stored.push(...page.data);
          more = page.meta.has_more;
          after = page.data.at(-1)?.seq ?? after;
        }
        const storedById = new Map(stored.map((message) => [message.id, message]));
        const lost = answered.filter((message) => storedById.get(message.id)?.body !== message.body);
        expect(lost).toEqual([]);
        // Nothing half-written either: the seqs run 1..n without a gap.
        expect(stored.map((message) => message.seq)).toEqual(stored.map((_, index) => index + 1));

        // And it still takes writes.
        const res = await fetch(`${again}/api/v1/chat/conversations/${conversationId}/messages`, {
          method: "POST",
          headers: { authorization: `Bearer ${bob.token}`, "content-type": "application/json" },
          body: JSON.stringify({ body: "after the restart" }),
        });
        expect(res.status).toBe(201);
      },
      TIMEOUT_MS,
    );
  },
);
