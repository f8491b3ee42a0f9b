import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { createMailer } from "@agora/adapters/mail/create-mailer";
import { DEFAULT_TIMEOUTS, testConfig } from "@agora/process/config";
import { createLogger } from "@agora/process/logging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../test/harness";

const MAIL_TIMEOUT_MS = 500;

describe("a mail provider that accepts the connection and never answers", () => {
  let h: Harness;
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));

  beforeAll(async () => {
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const config = testConfig({
      mail: {
        from: "agora@localhost",
        resendApiKey: undefined,
        logBodies: false,
        smtp: {
          host: "127.0.0.1",
          port: (silent.address() as AddressInfo).port,
          user: undefined,
          password: undefined,
          secure: false,
          requireTls: false,
        },
      },
      timeouts: { ...DEFAULT_TIMEOUTS, mailMs: MAIL_TIMEOUT_MS },
    });
    // The mailer as production builds it from configuration (MAIL_TIMEOUT_MS).
    h = await createHarness({ mail: createMailer(config, createLogger({ level: "silent" })) });
  });
  afterAll(async () => {
    await h?.close();
    for (const socket of sockets) {
      socket.destroy();
    }
    silent.close();
  });

  it("answers registration 503 email_unavailable within the mail timeout, creating nothing and leaving no transaction open", async () => {
    const started = performance.now();
    const res = await h.post<{ error: { code: string } }>("/api/v1/auth/register", {
      username: "patient",
      email: "patient@example.com",
      password: "correct horse battery",
    });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("email_unavailable");
    expect(elapsed).toBeGreaterThanOrEqual(MAIL_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(MAIL_TIMEOUT_MS + 1_500);
    expect(await h.runtime.identity.repos.users.findByEmail("patient@example.com")).toBeNull();
    if (h.db.kind === "postgres") {
      const { rows } = await h.db.sql.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
      );
      expect(rows).toHaveLength(0);
    }
  });
});
