import type { MediaAsset } from "../media/media.types";

/**
 * The message types a client may send. A message with media is still `text`: its body is required
 * (the specification: non-empty after trimming), and its images come in `media`.
 */
export const messageTypes = ["text"] as const;
export type MessageType = (typeof messageTypes)[number];

/** Longest message body, in characters, after trimming. */
export const MAX_MESSAGE_LENGTH = 4000;

/** Most media assets (purpose `message`) one message carries, as a moment. */
export const MAX_MESSAGE_MEDIA = 5;

/** Conversations per list, and messages per page or catch-up (up to 50 per read). */
export const CHAT_PAGE_SIZE = 50;

/**
 * A chat message. `seq` is 1, 2, 3 … within its conversation, without gaps: one total order that
 * both participants see and a cursor for paging and catch-up.
 */
export type Message = {
  id: string;
  conversationId: string;
  seq: number;
  senderId: string;
  body: string;
  messageType: MessageType;
  clientMessageId: string | null;
  createdAt: Date;
  /**
   * Held by a content filter until a moderator releases it (docs/safety.md, "Filters"): its
   * sender's only, with a negative seq outside the conversation's sequence; its release gives it
   * the conversation's next seq.
   */
  held: boolean;
  /**
   * Its media, in the order sent: the sender's assets of purpose `message`, private (their URLs go
   * to the conversation's two participants only); empty for a text-only message.
   */
  media: MediaAsset[];
};

/** A one-to-one conversation; `participantIds` in ascending order. */
export type Conversation = {
  id: string;
  participantIds: [string, string];
  /** The newest message's seq (0 before the first message). */
  lastSeq: number;
  createdAt: Date;
  /** Last activity: creation, then each message. */
  updatedAt: Date;
};

/**
 * Why a send stores nothing (chatSendRefusal): not a participant (404), or the pair is blocked
 * (403).
 */
export type SendRefusal = "not_found" | "blocked";

/** A conversation as one participant sees it in a list. */
export type ConversationSummary = Conversation & {
  lastMessage: Message | null;
  /** The other participant's messages after the viewer's read marker. */
  unreadCount: number;
};

/** Where a participant has read up to (0 before anything was read) and when it last moved. */
export type ReadMarker = {
  conversationId: string;
  userId: string;
  lastReadSeq: number;
  readAt: Date | null;
};

/**
 * A user's presence on the realtime channel: online while a socket of theirs is open (on any
 * conversation, in any API process); `lastActiveAt` is when they were last seen connected (the
 * latest heartbeat while online, the close or the last heartbeat of a dead process after), null
 * when they never were.
 */
export type Presence = { userId: string; online: boolean; lastActiveAt: Date | null };

/** One page of messages, in ascending seq; `hasMore` says whether the direction asked for goes on. */
export type MessagePage = { messages: Message[]; hasMore: boolean };

/** Which messages a page holds: the newest, those before a seq, or those after one. */
export type PageCursor = { before: number } | { after: number } | { newest: true };
