import { AppError } from "../common/app-error";

/**
 * Wrong password or unknown email at sign-in (401); both take the same time. Also a signed-in
 * caller's wrong current password (changing the password), with its own message.
 */
export class InvalidCredentialsError extends AppError {
  constructor(message = "The email or password is wrong.") {
    super("invalid_credentials", message);
  }
}

/**
 * A code that is wrong, expired, spent or absent. The API answers it 401 at sign-in and 422 for
 * email verification and password reset (each operation documents its status).
 */
export class InvalidCodeError extends AppError {
  constructor() {
    super("invalid_code", "The code is wrong, expired or already used.");
  }
}

/** An unknown, expired, revoked or reused refresh token (401). */
export class InvalidRefreshTokenError extends AppError {
  constructor() {
    super("invalid_refresh_token", "The refresh token is invalid, expired or revoked; sign in again.");
  }
}

/** Right password, account not verified yet (403). */
export class EmailNotVerifiedError extends AppError {
  constructor() {
    super("email_not_verified", "Verify your email address before signing in.");
  }
}

/** Right password, account suspended by an administrator (403). */
export class AccountSuspendedError extends AppError {
  constructor() {
    super("account_suspended", "This account is suspended.");
  }
}

/** Another account holds the username, compared case-insensitively (409). */
export class UsernameTakenError extends AppError {
  constructor() {
    super("username_taken", "That username is taken.");
  }
}

/**
 * Another active or suspended account took the address between the email change's request and its
 * verification (409); only the holder of the mailed code can see it, so it tells nobody else anything.
 */
export class EmailTakenError extends AppError {
  constructor() {
    super("email_taken", "That email address now belongs to another account.");
  }
}

/** An undo link's token that is unknown, expired or already used (422). */
export class InvalidTokenError extends AppError {
  constructor() {
    super("invalid_token", "The link is invalid, expired or already used.");
  }
}

/** The mail provider did not accept the message (503); nothing of the request was kept. */
export class EmailUnavailableError extends AppError {
  constructor(cause?: unknown) {
    super("email_unavailable", "Email delivery is unavailable; try again later.", { cause });
  }
}

/**
 * Every password hashing slot is busy and the queue is full (503 service_unavailable, Retry-After
 * 1): sign-in, registration and reset confirmation are refused at once rather than queued without
 * bound. Nothing of the request was kept.
 */
export class PasswordCheckBusyError extends AppError {
  constructor() {
    super("service_unavailable", "The service is busy checking passwords; try again in a moment.", {
      retryAfterSeconds: 1,
    });
  }
}

/**
 * The change would leave no active administrator (409 last_admin): the last active admin cannot
 * be demoted or suspended; promote or reactivate another administrator first.
 */
export class LastAdminError extends AppError {
  constructor() {
    super("last_admin", "This is the last active administrator; make another user an admin first.");
  }
}
