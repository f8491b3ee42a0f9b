/** A message as the domain composes it: plain text (the code alone on its own line) and HTML. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
};

/**
 * Hands a message to the mail provider. Resolves once the provider accepted it; rejects with
 * `MailDeliveryError` when it could not (the use case then answers 503 email_unavailable and
 * keeps nothing half-done).
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Thrown by a Mailer when the provider did not accept the message (network, auth, rejection). */
export class MailDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MailDeliveryError";
  }
}
