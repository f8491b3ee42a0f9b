import type { Mailer } from "@agora/domain/shared/mail";
import type { Logger } from "pino";
import type { Config } from "../config";
import { createMemoryMailer, type MemoryMailer } from "./memory-mailer";
import { createResendMailer } from "./resend-mailer";
import { createSmtpMailer } from "./smtp-mailer";

export type MailerKind = "resend" | "smtp" | "memory";

export type CreatedMailer = {
  mailer: Mailer;
  kind: MailerKind;
  /** Only for the memory mailer: what tests and development read the codes from. */
  memory?: MemoryMailer;
  close(): Promise<void>;
};

/**
 * Resend when an API key is set, else SMTP when a host is set, else the memory mailer. Config
 * validation already refuses staging and production without a provider, so reaching the memory
 * mailer means development or test.
 */
export const createMailer = (config: Config, logger: Logger): CreatedMailer => {
  const { from, resendApiKey, smtp, logBodies } = config.mail;
  if (resendApiKey) {
    return {
      mailer: createResendMailer({ apiKey: resendApiKey, from }, { timeoutMs: config.timeouts.mailMs }),
      kind: "resend",
      close: async () => {},
    };
  }
  if (smtp) {
    const mailer = createSmtpMailer({ ...smtp, from }, { timeoutMs: config.timeouts.mailMs });

    return { mailer, kind: "smtp", close: () => mailer.close() };
  }
  const memory = createMemoryMailer(logger, { logBodies });

  return { mailer: memory, kind: "memory", memory, close: async () => {} };
};
