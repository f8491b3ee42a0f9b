import type { Device, DevicePlatform, NewOutboxEvent, Notification, OutboxEvent } from "./delivery.types";

/**
 * Appends an event to the outbox. Use cases call it with the repositories of their unit of work,
 * so the event commits (or rolls back) with the change that caused it. Resolves the event's id.
 */
export interface OutboxWriter {
  append(event: NewOutboxEvent, at: Date): Promise<string>;
}

/** The worker's side of the outbox; each method is one statement on the pool (no transaction). */
export interface OutboxStore {
  /**
   * Claims up to `limit` pending events due by `now`, oldest first, and leases them until
   * `leaseUntil` (their `available_at` moves there): a worker that dies mid-batch leaves them to
   * be claimed again after the lease. Rows another worker is claiming are skipped, not waited for.
   */
  claim(now: Date, leaseUntil: Date, limit: number): Promise<OutboxEvent[]>;
  /** Marks a delivered event processed. False when it was no longer pending. */
  markProcessed(id: string, at: Date): Promise<boolean>;
  /** Marks delivered events processed in one statement; returns how many were still pending. */
  markProcessedMany(ids: readonly string[], at: Date): Promise<number>;
  /**
   * Records a failed delivery: the new failure count, the error line, and when to try again.
   * Applies only while the event is pending with `previousAttempts` failures (false otherwise).
   */
  recordFailure(
    id: string,
    failure: { previousAttempts: number; attempts: number; error: string; retryAt: Date },
  ): Promise<boolean>;
  /** Dead-letters the event: kept, never claimed again until re-driven. */
  markDead(
    id: string,
    failure: { previousAttempts: number; attempts: number; error: string; at: Date },
  ): Promise<boolean>;
  /**
   * Re-drives dead-lettered events (all, or the one with `eventId`): dead_at cleared, attempts
   * reset, due at `at`. Resolves how many.
   */
  redrive(at: Date, eventId?: string): Promise<number>;
}

export type NewNotification = {
  id: string;
  userId: string;
  eventId: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  createdAt: Date;
};

export interface NotificationRepository {
  /**
   * Inserts the inbox rows in one statement, each unless one with its id exists (ON CONFLICT DO
   * NOTHING) and only when its recipient exists and is not deleted. Returns how many were written.
   */
  addMany(notifications: readonly NewNotification[]): Promise<number>;
  /** Of the rows with these ids, the ones not pushed yet. */
  findUnpushed(ids: readonly string[]): Promise<Notification[]>;
  markPushed(id: string, at: Date): Promise<void>;
  /** The user's newest `limit` notifications, newest first. */
  listByUser(userId: string, limit: number): Promise<Notification[]>;
  /**
   * Sets read_at unless it is already set (the first read is kept); null when the notification
   * does not exist or belongs to another user.
   */
  markRead(id: string, userId: string, at: Date): Promise<Notification | null>;
}

export interface DeviceRepository {
  /**
   * Registers `token` for the user: a new device, or the existing one with that token moved to
   * this user with the given platform (id and created_at kept).
   */
  upsert(device: {
    id: string;
    userId: string;
    token: string;
    platform: DevicePlatform;
    at: Date;
  }): Promise<Device>;
  findTokensByUser(userId: string): Promise<string[]>;
  /** Removes registrations the push provider reported invalid; resolves how many. */
  deleteByTokens(tokens: readonly string[]): Promise<number>;
}

export type PushMessage = { title: string; body: string; data: Record<string, string> };

/**
 * Sends one message to a user's devices. Resolves the tokens the provider reported invalid (the
 * caller deletes them). Throws when the send failed in a way worth retrying (network, quota,
 * provider outage); the event then backs off. Only notifications use it: sign-in and verification
 * codes go by mail, never by push.
 */
export interface PushSender {
  send(tokens: string[], message: PushMessage): Promise<{ invalidTokens: string[] }>;
}

/** The repositories delivery adds to the unit of work and the pool. */
export type DeliveryRepositories = {
  outbox: OutboxWriter;
  notifications: NotificationRepository;
  devices: DeviceRepository;
};
