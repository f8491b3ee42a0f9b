import type { Role } from "../common/actor";
import type { AuditLog } from "../common/audit";
import type { Page, PageRequest } from "../common/page";
import type { RateLimiter, RateLimitResult } from "../common/rate-limit";
import type { MediaAssetRepository } from "../media/media.ports";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { AccessClaims, CodePurpose, User, UserStatus, UserWithSecret } from "./identity.types";

export type NewUser = {
  id: string;
  email: string;
  username: string;
  displayName: string;
  locale: string | null;
  passwordHash: string;
  role: Role;
  status: UserStatus;
  createdAt: Date;
};

export interface UserRepository {
  findById(id: string): Promise<UserWithSecret | null>;
  /** The user, locked for the rest of the transaction. */
  findByIdForUpdate(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<UserWithSecret | null>;
  /** Inserts; resolves "email_taken" or "username_taken" instead of throwing on a duplicate. */
  create(user: NewUser): Promise<"created" | "email_taken" | "username_taken">;
  /** Whether any account holds `username` (compared case-insensitively). */
  isUsernameTaken(username: string): Promise<boolean>;
  /**
   * Removes an account still pending verification (created before `createdBefore`, when given),
   * with what refers to it (codes, blocks, invitations); false when there was none. Run it in a
   * transaction: it locks the row first, so a verification committing meanwhile keeps the account.
   */
  deletePending(id: string, createdBefore?: Date): Promise<boolean>;
  /**
   * Locks the rows of every active administrator for the rest of the transaction and returns
   * their ids: a change that could remove the last one serializes with any other such change.
   */
  lockActiveAdmins(): Promise<string[]>;
  /** Updates the profile; "username_taken" when another account holds the name. */
  updateProfile(
    id: string,
    profile: { username: string; displayName: string },
    at: Date,
  ): Promise<User | "username_taken" | null>;
  /**
   * Sets the status, nothing else: the use case makes the user's listings follow
   * (ListingRepository.setOwnerActive) and, on activation, marks the email verified.
   */
  setStatus(id: string, status: UserStatus, at: Date): Promise<User | null>;
  /** Records the email as verified (kept when it already was). */
  markEmailVerified(id: string, at: Date): Promise<void>;
  setRole(id: string, role: Role, at: Date): Promise<User | null>;
  setPasswordHash(id: string, passwordHash: string, at: Date): Promise<void>;
  /**
   * Sets the email of an account that is not deleted and marks it verified; "email_taken" when
   * another account holds it (the unique index decides a race: the transaction is then aborted and
   * must be rolled back), null when there is no such account.
   */
  setEmail(id: string, email: string, at: Date): Promise<"updated" | "email_taken" | null>;
  /** pending_verification → active, marking the email verified. False when not pending. */
  activate(id: string, at: Date): Promise<boolean>;
  /**
   * Marks the account deleted and scrubs what identified it (email, username, name, password).
   * What the account published is the deleting use case's to erase (delete-me.ts).
   */
  markDeleted(id: string, at: Date): Promise<void>;
  /**
   * Newest first. `q` matches a substring of the email, username or display name
   * (case-insensitive); `status` and `role` match exactly.
   */
  findPage(
    filter: { q?: string | undefined; status?: UserStatus | undefined; role?: Role | undefined },
    page: PageRequest,
  ): Promise<Page<User>>;
}

export type StoredCode = {
  codeHash: string;
  sentAt: Date;
  expiresAt: Date;
  attempts: number;
  consumedAt: Date | null;
};

export interface CodeRepository {
  find(userId: string, purpose: CodePurpose): Promise<StoredCode | null>;
  /**
   * Stores a new code for (user, purpose), replacing the previous one ("stored"), unless the
   * previous one was sent after `cooldownBoundary` ("cooling_down", nothing written) or the account
   * no longer exists ("no_account": a newer registration replaced a pending one meanwhile). One
   * statement: concurrent callers serialize on the row and only one stores; it waits for a removal
   * of the account under way.
   */
  putIfCooledDown(
    userId: string,
    purpose: CodePurpose,
    code: { codeHash: string; sentAt: Date; expiresAt: Date },
    cooldownBoundary: Date,
  ): Promise<"stored" | "cooling_down" | "no_account">;
  /** Deletes the code of (user, purpose) if it is still the one with `codeHash` (its mail failed). */
  discard(userId: string, purpose: CodePurpose, codeHash: string): Promise<void>;
  /** Spends the live code of (user, purpose): no further try can match it. */
  spend(userId: string, purpose: CodePurpose, maxAttempts: number): Promise<void>;
  /**
   * One attempt, atomically: when a live code (unconsumed, unexpired, under `maxAttempts`) matches
   * it is consumed and "accepted"; a live code that does not match counts the attempt and is
   * "rejected"; no live code is "none". Two parallel attempts with the right code: one is accepted.
   */
  attempt(
    userId: string,
    purpose: CodePurpose,
    codeHash: string,
    now: Date,
    maxAttempts: number,
  ): Promise<"accepted" | "rejected" | "none">;
}

export type RefreshTokenRecord = {
  id: string;
  sessionId: string;
  userId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  sessionRevokedAt: Date | null;
  /** When the session began (sign-in): its absolute lifetime counts from here. */
  sessionCreatedAt: Date;
};

export interface SessionRepository {
  create(session: { id: string; userId: string; createdAt: Date }): Promise<void>;
  addRefreshToken(token: {
    id: string;
    sessionId: string;
    tokenHash: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** Finds the token by hash and locks it for the rest of the transaction. */
  findRefreshTokenForUpdate(tokenHash: string): Promise<RefreshTokenRecord | null>;
  markRotated(tokenId: string, at: Date): Promise<void>;
  revoke(sessionId: string, reason: string, at: Date): Promise<void>;
  revokeAllForUser(userId: string, reason: string, at: Date): Promise<number>;
  /**
   * The per-request check: the session's user and current role when the session is live at `at`
   * with the absolute lifetime `maxAgeSeconds` (sessionLive's rule, decided by the query).
   */
  findActiveActor(
    sessionId: string,
    at: Date,
    maxAgeSeconds: number,
  ): Promise<{ userId: string; role: Role } | null>;
  /**
   * findActiveActor at `count.now` and, when the session is live and its user is `userId`, one hit
   * of `count` (RateLimiter.hit's rule), in one round trip: the per-request check of a
   * write-limited route. Nothing is counted for a session that is not live or not `userId`'s.
   */
  findActiveActorCounting(
    sessionId: string,
    userId: string,
    count: { key: string; limit: number; windowSeconds: number; now: Date },
    maxAgeSeconds: number,
  ): Promise<{ userId: string; role: Role; limit: RateLimitResult } | null>;
  /** Of `sessionIds`, the ones live at `at` (the same rule as findActiveActor). */
  filterActive(sessionIds: readonly string[], at: Date, maxAgeSeconds: number): Promise<string[]>;
}

/** A completed email change the old address can undo (email_change_undos). */
export type EmailChangeUndo = {
  id: string;
  userId: string;
  oldEmail: string;
  newEmail: string;
  expiresAt: Date;
  usedAt: Date | null;
};

/** The pending email change of each account, and the undo records of completed ones. */
export interface EmailChangeRepository {
  /** Records the account's pending change, replacing any earlier one. */
  putPending(userId: string, newEmail: string, at: Date): Promise<void>;
  /** The account's pending change, locked for the rest of the transaction. */
  findPendingForUpdate(userId: string): Promise<{ newEmail: string; requestedAt: Date } | null>;
  deletePending(userId: string): Promise<void>;
  /**
   * The account whose live undo (unused, unexpired at `at`) reserves `email` as its old address,
   * or null when none does.
   */
  reservedBy(email: string, at: Date): Promise<string | null>;
  createUndo(undo: {
    id: string;
    userId: string;
    tokenHash: string;
    oldEmail: string;
    newEmail: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** The undo whose token has this hash, locked for the rest of the transaction. */
  findUndoForUpdate(tokenHash: string): Promise<EmailChangeUndo | null>;
  markUndoUsed(id: string, at: Date): Promise<void>;
}

export type IdentityRepositories = {
  users: UserRepository;
  codes: CodeRepository;
  sessions: SessionRepository;
  emailChanges: EmailChangeRepository;
  audit: AuditLog;
  rateLimits: RateLimiter;
  outbox: OutboxWriter;
  /** The avatar; confirming an upload queues its processing in the outbox. */
  media: MediaAssetRepository;
};

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Burns the same time as a verify, for the unknown-account path. */
  verifyDummy(password: string): Promise<false>;
}

export interface AccessTokenIssuer {
  issue(claims: AccessClaims, now: Date): Promise<{ token: string; expiresIn: number }>;
  /** The claims of a valid, unexpired token; null for anything else. */
  verify(token: string, now: Date): Promise<AccessClaims | null>;
}
