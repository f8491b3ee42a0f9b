import type { Role } from "../common/actor";
import type { AuditLog } from "../common/audit";
import type { Page, PageRequest } from "../common/page";
import type { RateLimiter, RateLimitResult } from "../common/rate-limit";
import type { MediaAssetRepository } from "../media/media.ports";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { NewOutboxEvent } from "../outbox/outbox.types";
import type { DataExport, ExportContents } from "./data-export";
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

/** Where and on what a session began, as its sign-in request said (null: not said). */
export type SessionOrigin = {
  /** ios | android | web, as the client sent it. */
  platform: string | null;
  /** The sign-in request's User-Agent, cut to 256 characters. */
  userAgent: string | null;
  /** The sign-in address's /24 (IPv4) or /48 (IPv6): never the address (addressPrefix). */
  addressHint: string | null;
};

/** A live session as its owner's list shows it. */
export type SessionSummary = SessionOrigin & {
  id: string;
  createdAt: Date;
  /** The last use as recorded (sign-in until the first use is written). */
  lastUsedAt: Date;
};

export interface SessionRepository {
  create(session: { id: string; userId: string; createdAt: Date } & Partial<SessionOrigin>): Promise<void>;
  /**
   * The user's sessions live at `at` (sessionLive's rule), most recently used first, at most `limit`.
   */
  listLive(userId: string, at: Date, maxAgeSeconds: number, limit: number): Promise<SessionSummary[]>;
  /**
   * Ends `sessionId` when it is one of `userId`'s sessions: a live one is revoked now, one that
   * has ended already stays as it is; true for either. False (nothing changed) for another user's
   * session or an unknown id.
   */
  endOwn(
    userId: string,
    sessionId: string,
    reason: string,
    at: Date,
    maxAgeSeconds: number,
  ): Promise<boolean>;
  /**
   * What a new sign-in is compared with, over the user's other sessions (ended ones included):
   * whether there is any (`earlier`), and whether one began at or after `since` with the same
   * platform and address prefix (`seen`).
   */
  signInHistory(
    userId: string,
    exceptSessionId: string,
    since: Date,
    from: Pick<SessionOrigin, "platform" | "addressHint">,
  ): Promise<{ earlier: boolean; seen: boolean }>;
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
  /** Revokes every live session of `userId` (but `keptSessionId`, when given); resolves how many. */
  revokeAllForUser(userId: string, reason: string, at: Date, keptSessionId?: string): Promise<number>;
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

/**
 * When sessions were last used: each request with a live session says so, and the times reach
 * the sessions' `last_used_at` to the minute without a write per request (the adapter holds them in
 * the process and writes them together).
 */
export interface SessionActivity {
  /** A request was made with `sessionId` at `at`. */
  seen(sessionId: string, at: Date): void;
  /** The latest use of `sessionId` this process holds and has not written yet. */
  heldFor(sessionId: string): Date | undefined;
}

/** The data exports' rows, for the use cases (request, status, the mailed link, deletion). */
export interface DataExportRepository {
  /** The user's newest export (by request time), or null when none was ever requested. */
  findLatest(userId: string): Promise<DataExport | null>;
  /** Inserts a pending export requested at `requestedAt`. */
  create(exported: { id: string; userId: string; requestedAt: Date }): Promise<void>;
  /** The export whose mailed link's token has this SHA-256, or null. */
  findByTokenHash(tokenHash: string): Promise<DataExport | null>;
  /**
   * Account deletion: the user's ready exports become expired and pending ones failed (a delivery
   * under way then keeps nothing); returns the object keys of the ready ones, for the caller to
   * delete (through the outbox, after commit).
   */
  closeAllForUser(userId: string): Promise<string[]>;
}

/** The data exports' side of the outbox worker (identity.export_requested and export_expired). */
export interface DataExportDeliveryStore {
  findById(id: string): Promise<DataExport | null>;
  /**
   * What the account holds, read with bounded queries (at most `rowsPerKind` rows of each kind,
   * newest first), the user's rows only; secrets (password and token hashes) are never read.
   */
  gather(userId: string, rowsPerKind: number): Promise<ExportContents>;
  /**
   * pending → ready with its object, lifetime and the mailed link's token hash, and `expiry`
   * appended to the outbox due at `expiresAt`, in one transaction; false (nothing written) when the
   * export is not pending any more.
   */
  markReady(
    id: string,
    ready: {
      readyAt: Date;
      expiresAt: Date;
      objectKey: string;
      sizeBytes: number;
      downloadTokenHash: string;
    },
    expiry: NewOutboxEvent,
  ): Promise<boolean>;
  /** Replaces the mailed link's token hash of a ready export (a re-sent mail); false when not ready. */
  setDownloadToken(id: string, downloadTokenHash: string): Promise<boolean>;
  /** pending → failed (the account is gone). */
  markFailed(id: string): Promise<void>;
  /** ready → expired, the link's token forgotten. */
  markExpired(id: string): Promise<void>;
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
  /**
   * Spends every undo of the account not used yet (the one being used, and those of later changes,
   * which would move the account away from the address it is restored to).
   */
  endUndosOf(userId: string, at: Date): Promise<void>;
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
  dataExports: DataExportRepository;
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
