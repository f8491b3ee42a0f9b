import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { Writable } from "node:stream";
import { MailDeliveryError, type OutgoingMail } from "@agora/domain/common/mail";
import pino from "pino";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createMailer, type MailerConfig } from "./create-mailer";
import { createMemoryMailer, MEMORY_MAIL_LOG_MESSAGE } from "./memory-mailer";
import { createResendMailer } from "./resend-mailer";
import { createSmtpMailer } from "./smtp-mailer";

const FROM = "agora@agora.test";
const codeMail: OutgoingMail = {
  to: "ada@example.test",
  subject: "Your Agora code",
  text: "Your code:\n\n123456\n\nIt expires in 30 minutes.",
  html: "<p>Your code:</p><p><strong>123456</strong></p><p>It expires in 30 minutes.</p>",
};
const fastTimeouts = { connectionTimeoutMs: 500, greetingTimeoutMs: 500, socketTimeoutMs: 500 };

// Cleanups registered by each test, run in reverse order after it.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

const portOf = (server: { address(): AddressInfo | string | null }): number => {
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("server is not listening on a TCP port");
  }

  return address.port;
};

type Received = { mailFrom: string | undefined; rcptTo: string[]; user: string | undefined; raw: string };

const startSmtpServer = async (options: SMTPServerOptions = {}) => {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    ...options,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === "string" ? session.user : undefined,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));

  return { port: portOf(server.server), received };
};

/** Header value (unfolded) and the decoded text/plain part: enough MIME for these assertions. */
const parseRaw = (raw: string) => {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const headers = head.replace(/\r\n[ \t]+/g, " ").split("\r\n");
  const header = (name: string) =>
    headers
      .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim();
  const boundary = /boundary="?([^";]+)"?/i.exec(header("Content-Type") ?? "")?.[1];
  const body = rest.join("\r\n\r\n");
  const parts = boundary ? body.split(`--${boundary}`) : [`${head}\r\n\r\n${body}`];
  const textPart = parts.find((part) => /content-type:\s*text\/plain/i.test(part)) ?? "";
  const [partHead = "", ...partBody] = textPart.replace(/^\r\n/, "").split("\r\n\r\n");
  let text = partBody.join("\r\n\r\n").replace(/\r\n$/, "");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(partHead)) {
    text = text
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }

  return { header, textLines: text.split(/\r?\n/) };
};

describe("SMTP mailer", () => {
  it("hands the message to the relay: envelope, subject, the code alone on its line", async () => {
    const smtp = await startSmtpServer();
    const mailer = createSmtpMailer(
      { host: "127.0.0.1", port: smtp.port, user: undefined, password: undefined, secure: false, from: FROM },
      fastTimeouts,
    );
    cleanups.push(() => mailer.close());

    await mailer.send(codeMail);

    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message?.mailFrom).toBe(FROM);
    expect(message?.rcptTo).toEqual([codeMail.to]);
    const parsed = parseRaw(message?.raw ?? "");
    expect(parsed.header("Subject")).toBe(codeMail.subject);
    expect(parsed.header("To")).toBe(codeMail.to);
    expect(parsed.textLines).toContain("123456");
    expect(parsed.textLines[0]).toBe("Your code:");
  });

  it("with requireTls refuses a relay that does not offer STARTTLS, and nothing reaches it", async () => {
    const smtp = await startSmtpServer();
    const settings = { host: "127.0.0.1", port: smtp.port, user: undefined, password: undefined, from: FROM };
    const strict = createSmtpMailer({ ...settings, secure: false, requireTls: true }, fastTimeouts);
    cleanups.push(() => strict.close());

    const failure = await strict.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect(smtp.received).toHaveLength(0);

    const lenient = createSmtpMailer({ ...settings, secure: false }, fastTimeouts);
    cleanups.push(() => lenient.close());
    await lenient.send(codeMail);
    expect(smtp.received).toHaveLength(1);
  });

  it("authenticates with user and password when the relay requires it", async () => {
    const smtp = await startSmtpServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === "mailer" && auth.password === "s3cret-pass") {
          callback(null, { user: "mailer" });

          return;
        }
        callback(new Error("Invalid username or password"));
      },
    });
    const settings = { host: "127.0.0.1", port: smtp.port, secure: false, from: FROM };
    const good = createSmtpMailer({ ...settings, user: "mailer", password: "s3cret-pass" }, fastTimeouts);
    cleanups.push(() => good.close());

    await good.send(codeMail);
    expect(smtp.received.map((message) => message.user)).toEqual(["mailer"]);

    const bad = createSmtpMailer({ ...settings, user: "mailer", password: "wrong-pass" }, fastTimeouts);
    cleanups.push(() => bad.close());
    const failure = await bad.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toContain("EAUTH");
    expect((failure as Error).message).not.toContain("wrong-pass");
    expect((failure as Error).cause).toBeInstanceOf(Error);
    expect(smtp.received).toHaveLength(1);
  });

  it("fails with MailDeliveryError, quickly, when nothing listens", async () => {
    const probe = createTcpServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const port = portOf(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const mailer = createSmtpMailer(
      { host: "127.0.0.1", port, user: undefined, password: undefined, secure: false, from: FROM },
      fastTimeouts,
    );
    const started = Date.now();
    const failure = await mailer.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    // nodemailer reports a refused connection as ESOCKET (ECONNREFUSED in `cause`).
    expect((failure as Error).message).toMatch(/\((ESOCKET|ECONNECTION)\)/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives up after the greeting timeout when the server accepts but never speaks", async () => {
    const sockets = new Set<Socket>();
    const silent = createTcpServer((socket) => sockets.add(socket));
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    cleanups.push(async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    const mailer = createSmtpMailer(
      {
        host: "127.0.0.1",
        port: portOf(silent),
        user: undefined,
        password: undefined,
        secure: false,
        from: FROM,
      },
      { connectionTimeoutMs: 300, greetingTimeoutMs: 300, socketTimeoutMs: 300 },
    );
    const started = Date.now();
    const failure = await mailer.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toContain("ETIMEDOUT");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("SMTP mailer, whole-send timeout", () => {
  it("bounds the whole send by timeoutMs, even when every step answers within its own timeout", async () => {
    const slowly = (callback: () => void) => setTimeout(callback, 400);
    const smtp = await startSmtpServer({
      onConnect: (_session, callback) => slowly(() => callback()),
      onMailFrom: (_address, _session, callback) => slowly(() => callback()),
      onRcptTo: (_address, _session, callback) => slowly(() => callback()),
    });
    const mailer = createSmtpMailer(
      { host: "127.0.0.1", port: smtp.port, user: undefined, password: undefined, secure: false, from: FROM },
      { timeoutMs: 500, connectionTimeoutMs: 2_000, greetingTimeoutMs: 2_000, socketTimeoutMs: 2_000 },
    );
    cleanups.push(() => mailer.close());

    const started = Date.now();
    const failure = await mailer.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toContain("(ETIMEDOUT)");
    expect(Date.now() - started).toBeLessThan(1_100);
  });
});

type RecordedRequest = {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  body: unknown;
};

const startFakeResend = async (answer: (response: ServerResponse) => void) => {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method,
        url: request.url,
        authorization: request.headers.authorization,
        body: text ? JSON.parse(text) : undefined,
      });
      answer(response);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  return { baseUrl: `http://127.0.0.1:${portOf(server)}`, requests };
};

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
};

describe("Resend mailer", () => {
  it("posts the message to /emails with the API key and resolves on 200", async () => {
    const resend = await startFakeResend((response) => json(response, 200, { id: "49a3999c-0ce1-4ea6" }));
    const mailer = createResendMailer({ apiKey: "re_test_key", from: FROM, baseUrl: resend.baseUrl });

    await mailer.send(codeMail);

    expect(resend.requests).toHaveLength(1);
    const [request] = resend.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/emails");
    expect(request?.authorization).toBe("Bearer re_test_key");
    expect(request?.body).toMatchObject({
      from: FROM,
      to: codeMail.to,
      subject: codeMail.subject,
      text: codeMail.text,
      html: codeMail.html,
    });
  });

  it.each([
    [422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." }],
    [500, { statusCode: 500, name: "internal_server_error", message: "Unexpected error." }],
  ])("turns a %i answer into MailDeliveryError", async (status, body) => {
    const resend = await startFakeResend((response) => json(response, status, body));
    const mailer = createResendMailer({ apiKey: "re_test_key", from: FROM, baseUrl: resend.baseUrl });

    const failure = await mailer.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toContain(body.name);
    expect((failure as Error).message).not.toContain("re_test_key");
    expect(resend.requests).toHaveLength(1);
  });

  it("turns a network failure into MailDeliveryError", async () => {
    const probe = createTcpServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const port = portOf(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = createResendMailer({
      apiKey: "re_test_key",
      from: FROM,
      baseUrl: `http://127.0.0.1:${port}`,
    });

    await expect(mailer.send(codeMail)).rejects.toBeInstanceOf(MailDeliveryError);
  });

  it("gives up after the timeout when the API does not answer", async () => {
    const resend = await startFakeResend(() => {});
    const mailer = createResendMailer(
      { apiKey: "re_test_key", from: FROM, baseUrl: resend.baseUrl },
      { timeoutMs: 300 },
    );
    const started = Date.now();
    const failure = await mailer.send(codeMail).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toContain("timed out");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

/** The mailer's slice of the configuration: no provider unless `mail` says one. */
const mailerConfig = (mail: Partial<MailerConfig["mail"]> = {}): MailerConfig => ({
  mail: { from: FROM, resendApiKey: undefined, smtp: undefined, logBodies: false, ...mail },
  timeouts: { mailMs: 10_000 },
});

const collectingLogger = () => {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
      }
      callback();
    },
  });

  return { logger: pino({ level: "info" }, destination), lines };
};

describe("memory mailer", () => {
  it("keeps every message, finds the newest per recipient, logs a line with the body when asked", async () => {
    const { logger, lines } = collectingLogger();
    const mailer = createMemoryMailer(logger, { logBodies: true });

    await mailer.send(codeMail);
    await mailer.send({ ...codeMail, to: "bob@example.test", text: "Your code:\n\n222222\n" });
    await mailer.send({ ...codeMail, text: "Your code:\n\n333333\n" });

    expect(mailer.sent.map((mail) => mail.to)).toEqual([codeMail.to, "bob@example.test", codeMail.to]);
    expect(mailer.last(codeMail.to)?.text).toContain("333333");
    expect(mailer.last("bob@example.test")?.text).toContain("222222");
    expect(mailer.last()?.text).toContain("333333");
    expect(mailer.last("nobody@example.test")).toBeUndefined();

    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: MEMORY_MAIL_LOG_MESSAGE,
      to: codeMail.to,
      subject: codeMail.subject,
      text: codeMail.text,
    });

    const kept = mailer.sent;
    mailer.clear();
    expect(kept).toHaveLength(0);
    expect(mailer.last()).toBeUndefined();
  });

  it("leaves the body, and so the code, out of the log by default (MAIL_LOG_BODIES unset)", async () => {
    const { logger, lines } = collectingLogger();
    const mailer =
      createMailer(mailerConfig(), logger).memory ?? createMemoryMailer(logger, { logBodies: true });

    await mailer.send(codeMail);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: MEMORY_MAIL_LOG_MESSAGE,
      to: codeMail.to,
      subject: codeMail.subject,
    });
    expect(lines[0]).not.toHaveProperty("text");
    expect(JSON.stringify(lines)).not.toContain("123456");
    expect(mailer.sent).toHaveLength(1);
  });
});

describe("createMailer", () => {
  const { logger } = collectingLogger();

  it("picks the memory mailer when no provider is configured", async () => {
    const created = createMailer(mailerConfig(), logger);
    expect(created.kind).toBe("memory");
    await created.mailer.send(codeMail);
    expect(created.memory?.last(codeMail.to)?.subject).toBe(codeMail.subject);
    await created.close();
  });

  it("picks SMTP when a host is configured, and it delivers", async () => {
    const smtp = await startSmtpServer();
    const config = mailerConfig({
      smtp: {
        host: "127.0.0.1",
        port: smtp.port,
        user: undefined,
        password: undefined,
        secure: false,
        requireTls: false,
      },
    });
    const created = createMailer(config, logger);
    expect(created.kind).toBe("smtp");
    expect(created.memory).toBeUndefined();
    await created.mailer.send(codeMail);
    await created.close();
    expect(smtp.received[0]?.rcptTo).toEqual([codeMail.to]);
  });

  it("prefers Resend when an API key is set, even with SMTP configured", async () => {
    const config = mailerConfig({
      resendApiKey: "re_123",
      smtp: {
        host: "127.0.0.1",
        port: 2525,
        user: undefined,
        password: undefined,
        secure: false,
        requireTls: false,
      },
    });
    const created = createMailer(config, logger);
    expect(created.kind).toBe("resend");
    await created.close();
  });
});
