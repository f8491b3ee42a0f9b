import { AppError } from "../common/app-error";

/**
 * Thrown when a client_message_id the sender already used in this conversation comes with another
 * body or type (409): a retry must repeat the message it retries.
 */
export class ClientMessageConflictError extends AppError {
  constructor() {
    super(
      "idempotency_conflict",
      "This client_message_id was already used for a different message in this conversation.",
    );
  }
}
