import type { Mailer, OutgoingMail } from "@agora/domain/common/mail";
import type { Logger } from "pino";

export type MemoryMailer = Mailer & {
  /** Every message sent, oldest first. */
  sent: OutgoingMail[];
  /** The newest message, or the newest to `to` when given. */
  last(to?: string): OutgoingMail | undefined;
  clear(): void;
};

export type MemoryMailerOptions = {
  /**
   * Put the text body, and so any code it carries, in the log line (MAIL_LOG_BODIES). Off by
   * default: a deployment that forgot APP_ENV must not print every sign-in code to its logs.
   */
  logBodies?: boolean;
};

export const MEMORY_MAIL_LOG_MESSAGE = "mail (not sent: no mail provider configured)";

/** Development and test stand-in: keeps messages in memory and logs them; never fails. */
export const createMemoryMailer = (logger: Logger, options: MemoryMailerOptions = {}): MemoryMailer => {
  const logBodies = options.logBodies ?? false;
  const sent: OutgoingMail[] = [];

  return {
    sent,
    async send(mail: OutgoingMail): Promise<void> {
      // A copy, so a caller reusing its object cannot rewrite what was "sent".
      sent.push({ ...mail });
      logger.info(
        logBodies
          ? { to: mail.to, subject: mail.subject, text: mail.text }
          : { to: mail.to, subject: mail.subject },
        MEMORY_MAIL_LOG_MESSAGE,
      );
    },
    last(to?: string): OutgoingMail | undefined {
      for (let index = sent.length - 1; index >= 0; index -= 1) {
        const mail = sent[index];
        if (mail && (to === undefined || mail.to === to)) {
          return mail;
        }
      }

      return undefined;
    },
    clear(): void {
      // In place: tests may hold a reference to `sent`.
      sent.length = 0;
    },
  };
};
