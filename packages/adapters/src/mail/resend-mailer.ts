import { MailDeliveryError, type Mailer, type OutgoingMail } from "@agora/domain/common/mail";
import { Resend } from "resend";

export type ResendSettings = {
  apiKey: string;
  from: string;
  /** Another API origin (a local stand-in in tests); defaults to Resend's public API. */
  baseUrl?: string | undefined;
};

export type ResendMailerOptions = {
  /** Whole request, body included. */
  timeoutMs?: number;
};

const DEFAULT_BASE_URL = "https://api.resend.com";
// A request waits on send (the use case answers 503 when it fails): fail within seconds.
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Sends through Resend's HTTP API with the official SDK. The SDK answers `{ data, error }` and
 * turns network failures and aborts into an `error` too (name "application_error", statusCode
 * null); both that and anything it might still throw become MailDeliveryError.
 */
export const createResendMailer = (settings: ResendSettings, options: ResendMailerOptions = {}): Mailer => {
  // With an empty key the SDK falls back to process.env.RESEND_API_KEY: refuse instead, so the
  // key only ever comes from Config.
  if (!settings.apiKey) {
    throw new Error("createResendMailer: apiKey is required");
  }
  // The SDK takes `baseUrl` as a constructor option and reads RESEND_BASE_URL only when the option
  // is absent, so passing it always (public API by default) keeps the environment out of it.
  const client = new Resend(settings.apiKey, {
    baseUrl: (settings.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return {
    async send(mail: OutgoingMail): Promise<void> {
      const signal = AbortSignal.timeout(timeoutMs);
      let result: Awaited<ReturnType<typeof client.emails.send>>;
      try {
        result = await client.emails.send(
          { from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html },
          { signal },
        );
      } catch (error) {
        throw new MailDeliveryError("Resend request failed", { cause: error });
      }
      if (result.error) {
        const { name, statusCode, message } = result.error;
        const reason = signal.aborted
          ? `timed out after ${timeoutMs} ms`
          : `${name} (${statusCode ?? "no response"})`;
        // Resend's message may quote the recipient: it goes to `cause`, not into our message.
        throw new MailDeliveryError(`Resend did not accept the message: ${reason}`, {
          cause: new Error(`${name}: ${message}`),
        });
      }
    },
  };
};
