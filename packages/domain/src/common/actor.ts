export const roles = ["member", "provider", "accountant", "admin"] as const;
export type Role = (typeof roles)[number];

/** The authenticated caller of a use case, built per request from the access token and the session. */
export type Actor = {
  userId: string;
  role: Role;
  sessionId: string;
  /** The request acting, for the audit trail (absent outside a request). */
  requestId?: string | undefined;
};
