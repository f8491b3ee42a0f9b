import type { ErrorCode, FieldIssue } from "@agora/contracts/errors";
import { AppError, type LimitState } from "@agora/domain/common/app-error";

/**
 * A refusal of the HTTP edge itself (never of a use case), with headers of its own: `Upgrade` on a
 * plain request to the realtime route, `Connection: close` when an unread body is left behind.
 * Domain errors carry no HTTP: the edge maps their facts (errors.ts).
 */
export class HttpRefusal extends AppError {
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      headers: Record<string, string>;
      details?: FieldIssue[] | undefined;
      retryAfterSeconds?: number | undefined;
      limit?: LimitState | undefined;
    },
  ) {
    super(code, message, {
      ...(options.details ? { details: options.details } : {}),
      ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds }),
      ...(options.limit ? { limit: options.limit } : {}),
    });
    this.headers = options.headers;
  }
}
