import type { Device, DevicePlatform, Notification, NotificationPage } from "./notifications.types";

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
  /**
   * Writes the recipient's chat notice of a conversation (id per recipient and conversation): a
   * new row, or the existing one updated in place (kind, title, body, data, raised at the newer
   * time, not pushed yet), only when `data.seq` is newer than the one it holds, so a redelivered
   * or late event changes nothing. Nothing for a missing or deleted recipient. Whether it wrote.
   */
  upsertChatNotice(notice: NewNotification & { conversationId: string; seq: number }): Promise<boolean>;
  /**
   * A page of the user's inbox, newest first (by when each was raised, then id): the first page,
   * or the one after `before` (a `nextBefore` of an earlier page; a position, so inserts above it
   * and a chat notice moving to the top change nothing below it).
   */
  listPage(userId: string, page: { before: string | undefined; limit: number }): Promise<NotificationPage>;
  /** One of the user's notifications; null when it does not exist or belongs to another user. */
  findForUser(id: string, userId: string): Promise<Notification | null>;
  /**
   * Sets read_at unless it is already set (the first read is kept) on a notice that is not a chat
   * notice (whose state is its conversation's), and answers it; null when the notification does
   * not exist or belongs to another user.
   */
  markRead(id: string, userId: string, at: Date): Promise<Notification | null>;
  /** Marks every unread notice of the user read (chat notices aside); resolves how many. */
  markAllRead(userId: string, at: Date): Promise<number>;
  /**
   * The user's unread count, in one statement: their unread notices other than chat notices, plus
   * the unread messages of each of their conversations (the `unread_count` every conversation
   * shows). Call it through `unreadTotal` (unread-total.ts).
   */
  countUnread(userId: string): Promise<number>;
  /** Empties the user's inbox (account deletion). */
  deleteForUser(userId: string): Promise<void>;
}

export interface DeviceRepository {
  /**
   * Registers `token` for the user and session, in one statement: a new device; or the existing
   * one with that token (id and created_at kept) when it is the user's own, when the session that
   * registered it has ended, or when `takeOver` is set (the caller proved it receives the token's
   * pushes). Otherwise the token is held by another user's live session: "held", nothing written.
   */
  register(
    device: {
      id: string;
      userId: string;
      sessionId: string;
      token: string;
      platform: DevicePlatform;
      at: Date;
    },
    options: { takeOver: boolean },
  ): Promise<Device | "held">;
  /** Deletes the user's registrations beyond the `keep` most recently registered; resolves how many. */
  trimUser(userId: string, keep: number): Promise<number>;
  /** The tokens to push to: the user's registrations whose session is live (or predates sessions). */
  findTokensByUser(userId: string): Promise<string[]>;
  /** Removes registrations the push provider reported invalid; resolves how many. */
  deleteByTokens(tokens: readonly string[]): Promise<number>;
  /** Removes every registration of the user (account deletion). */
  deleteForUser(userId: string): Promise<void>;
}

/**
 * What a push carries: a visible notification (title and body) with string data, or data only (no
 * title: nothing is shown; the app handles it, as with a device proof).
 */
export type PushMessage = {
  title?: string;
  body?: string;
  data: Record<string, string>;
  /**
   * Messages with the same key replace each other on the device instead of stacking (one
   * notification per chat conversation); absent = each stands alone.
   */
  collapseKey?: string;
  /** The app icon's badge: the recipient's unread count (unreadTotal); absent = left as it is. */
  badge?: number;
};

/**
 * The read markers of the user's conversations, as reading notices moves them (implemented by
 * chat's conversation repository): reading a chat notice reads its conversation.
 */
export interface ConversationReadMarkers {
  /** Moves the user's marker to the conversation's newest message; null when not a participant. */
  markRead(conversationId: string, userId: string, at: Date): Promise<unknown>;
  /** Moves the user's marker of every conversation with unread messages; resolves how many moved. */
  markAllRead(userId: string, at: Date): Promise<number>;
}

/**
 * Sends one message to a user's devices. Resolves the tokens the provider reported invalid (the
 * caller deletes them). Throws when the send failed in a way worth retrying (network, quota,
 * provider outage); the event then backs off. Only notifications use it: sign-in and verification
 * codes go by mail, never by push.
 */
export interface PushSender {
  send(tokens: string[], message: PushMessage): Promise<{ invalidTokens: string[] }>;
}
