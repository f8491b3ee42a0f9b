import type { Role } from "../common/actor";

export const userStatuses = ["pending_verification", "active", "suspended", "deleted"] as const;
export type UserStatus = (typeof userStatuses)[number];

export type User = {
  id: string;
  email: string;
  username: string;
  displayName: string;
  locale: string | null;
  role: Role;
  status: UserStatus;
  createdAt: Date;
};

export type UserWithSecret = User & { passwordHash: string };

export const codePurposes = ["verification", "sign_in", "reset", "email_change"] as const;
export type CodePurpose = (typeof codePurposes)[number];

/** What the service answers after a sign-in or a refresh. */
export type IssuedSession = {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: User;
};

/**
 * What a session's liveness is decided from (sessionLive): the sessions row's revocation and
 * sign-in time, and its user's account status.
 */
export type SessionLivenessFacts = {
  revokedAt: Date | null;
  /** Sign-in: the session's absolute lifetime (SESSION_MAX_AGE_SECONDS) counts from here. */
  createdAt: Date;
  userStatus: UserStatus;
};

/** Claims of a verified access token. */
export type AccessClaims = { userId: string; role: Role; sessionId: string };
