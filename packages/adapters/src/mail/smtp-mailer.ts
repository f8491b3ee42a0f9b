import { MailDeliveryError, type Mailer, type OutgoingMail } from "@agora/domain/common/mail";
import { createTransport } from "nodemailer";
import { withDeadline } from "../deadline";

export type SmtpSettings = {
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
  secure: boolean;
  /** Refuse to send unless the relay upgrades the connection with STARTTLS (staging, production). */
  requireTls?: boolean;
  from: string;
};

export type SmtpMailerOptions = {
  /**
   * The whole send, connect to the relay's acceptance (MAIL_TIMEOUT_MS); the phase timeouts below
   * default to it. Each phase alone could otherwise take it whole, one after another.
   */
  timeoutMs?: number;
  /** TCP connect (including DNS); nodemailer's default is 2 minutes. */
  connectionTimeoutMs?: number;
  /** From connect to the server's 220 greeting; nodemailer's default is 30 s. */
  greetingTimeoutMs?: number;
  /** Inactivity on an open connection; nodemailer's default is 10 minutes. */
  socketTimeoutMs?: number;
};

export type SmtpMailer = Mailer & { close(): Promise<void> };

// A request waits on send (the use case answers 503 when it fails), so a provider that hangs must
// fail within seconds rather than hold the request for nodemailer's minutes-long defaults.
const DEFAULT_TIMEOUT_MS = 10_000;

const describeFailure = (error: unknown): string => {
  const parts: string[] = [];
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof code === "string") {
    parts.push(code);
  }
  if (typeof responseCode === "number") {
    parts.push(String(responseCode));
  }

  return parts.length > 0 ? ` (${parts.join(" ")})` : "";
};

/**
 * Sends through an SMTP relay. One connection per message, no pool: the volume is a few codes a
 * minute, and a pooled connection that the relay silently dropped while idle would turn the next
 * code into a failed request. STARTTLS is used whenever the server offers it (nodemailer default),
 * and is mandatory with `requireTls` (set in staging and production).
 */
export const createSmtpMailer = (settings: SmtpSettings, options: SmtpMailerOptions = {}): SmtpMailer => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    // Without it nodemailer falls back to plain text when a relay (or a man in the middle stripping
    // the capability) does not offer STARTTLS, and credentials and codes cross the network in clear.
    requireTLS: settings.requireTls === true && !settings.secure,
    // A relay without AUTH (local catcher, internal relay) is configured with no user.
    ...(settings.user === undefined ? {} : { auth: { user: settings.user, pass: settings.password ?? "" } }),
    connectionTimeout: options.connectionTimeoutMs ?? timeoutMs,
    greetingTimeout: options.greetingTimeoutMs ?? timeoutMs,
    socketTimeout: options.socketTimeoutMs ?? timeoutMs,
    dnsTimeout: options.connectionTimeoutMs ?? timeoutMs,
  });
  const where = `${settings.host}:${settings.port}`;

  return {
    async send(mail: OutgoingMail): Promise<void> {
      let rejected: unknown[];
      try {
        const info = await withDeadline(
          transport.sendMail({
            from: settings.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
          }),
          timeoutMs,
          () => Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" }),
        );
        rejected = info.rejected ?? [];
      } catch (error) {
        // Our own message names only the relay and the error code: nodemailer's message and the
        // address stay in `cause`, where the log serializer keeps only its first line.
        const reason = `SMTP relay ${where} did not accept the message${describeFailure(error)}`;
        throw new MailDeliveryError(reason, { cause: error });
      }
      // nodemailer rejects when every recipient is refused; a partial refusal resolves, and with a
      // single recipient that still means the message will not arrive.
      if (rejected.length > 0) {
        throw new MailDeliveryError(`SMTP relay ${where} refused the recipient`);
      }
    },
    async close(): Promise<void> {
      transport.close();
    },
  };
};
