import type { Mailer } from "@agora/domain/common/mail";
import type { Logger } from "pino";
import { loadOnce } from "../lazy";
import { createMemoryMailer, type MemoryMailer } from "./memory-mailer";
import type { SmtpMailer, SmtpSettings } from "./smtp-mailer";

export type MailerKind = "resend" | "smtp" | "memory";

export type CreatedMailer = {
  mailer: Mailer;
  kind: MailerKind;
  /** Only for the memory mailer: what tests and development read the codes from. */
  memory?: MemoryMailer;
  close(): Promise<void>;
};

/** A mailer whose module (and its SDK) is loaded at the first send. */
const onFirstSend = (load: () => Promise<Mailer>): Mailer => {
  const mailer = loadOnce(load);

  return { send: async (mail) => (await mailer()).send(mail) };
};

/**
 * Resend when an API key is set, else SMTP when a host is set, else the memory mailer. Config
 * validation already refuses staging and production without a provider, so reaching the memory
 * mailer means development or test. The Resend SDK and nodemailer are loaded at the first send.
 */
/** MAIL_* and MAIL_TIMEOUT_MS: the mailer's slice of the configuration. */
export type MailerConfig = {
  mail: {
    from: string;
    resendApiKey: string | undefined;
    smtp: Omit<SmtpSettings, "from"> | undefined;
    /** The memory mailer (no provider, development) writes mail bodies, codes included, to the log. */
    logBodies: boolean;
  };
  timeouts: { mailMs: number };
};

export const createMailer = (config: MailerConfig, logger: Logger): CreatedMailer => {
  const { from, resendApiKey, smtp, logBodies } = config.mail;
  const timeoutMs = config.timeouts.mailMs;
  if (resendApiKey) {
    return {
      mailer: onFirstSend(async () =>
        (await import("./resend-mailer")).createResendMailer({ apiKey: resendApiKey, from }, { timeoutMs }),
      ),
      kind: "resend",
      close: async () => {},
    };
  }
  if (smtp) {
    let created: SmtpMailer | undefined;
    const mailer = onFirstSend(async () => {
      created = (await import("./smtp-mailer")).createSmtpMailer({ ...smtp, from }, { timeoutMs });

      return created;
    });

    return { mailer, kind: "smtp", close: async () => created?.close() };
  }
  const memory = createMemoryMailer(logger, { logBodies });

  return { mailer: memory, kind: "memory", memory, close: async () => {} };
};
