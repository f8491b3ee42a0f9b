import type { BlockRepository } from "../community/community.ports";
import type { UserRepository } from "../identity/identity.ports";
import type { MediaRepositories } from "../media/media.ports";
import type { NotificationRepository } from "../notifications/notifications.ports";
import type { NewOutboxEvent } from "../outbox/outbox.types";
import type {
  Conversation,
  ConversationSummary,
  Message,
  MessagePage,
  MessageType,
  PageCursor,
  Presence,
  ReadMarker,
} from "./chat.types";

export type NewMessage = {
  id: string;
  conversationId: string;
  senderId: string;
  body: string;
  messageType: MessageType;
  clientMessageId: string | null;
  createdAt: Date;
  /** Held by a content filter: stored outside the sequence (a negative seq), nothing delivered. */
  held?: boolean;
};

/** What the one send statement did. */
export type SendOutcome =
  | { status: "sent"; message: Message }
  /** No such conversation, or the sender is not in it. */
  | { status: "not_found" }
  /** One of the two blocks the other: nothing was stored. */
  | { status: "blocked" }
  /** The sender already stored a message with this client_message_id here: nothing was stored. */
  | { status: "duplicate" };

export interface ConversationRepository {
  /** Inserts the pair's conversation unless the pair already has one (then nothing happens). */
  insertPair(conversation: { id: string; userAId: string; userBId: string; at: Date }): Promise<void>;
  /** The pair's conversation as `viewerId` sees it (last message, unread count). */
  findSummaryByPair(userAId: string, userBId: string, viewerId: string): Promise<ConversationSummary | null>;
  /**
   * A page of the user's conversations, most recently active first, in one statement: the first
   * page, or the one after `before` (a `nextBefore` of an earlier page of the same walk). A walk
   * lists the conversations that existed when its first page was read, in their order at that
   * moment: one that becomes active during the walk keeps its place, so each is listed once.
   */
  listSummariesPage(
    userId: string,
    page: { before: string | undefined; limit: number },
  ): Promise<{ items: ConversationSummary[]; nextBefore: string | null }>;
  /** The conversation, when `userId` is one of its participants. */
  findForParticipant(id: string, userId: string): Promise<Conversation | null>;
  /**
   * Moves the participant's read marker to the newest message (never back) and read_at to `at`
   * (never back), and signals every API process, in one statement; null when `userId` is not a
   * participant.
   */
  markRead(id: string, userId: string, at: Date): Promise<ReadMarker | null>;
  /**
   * markRead of every conversation of the user with unread messages, in one statement (each
   * signalled); resolves how many moved.
   */
  markAllRead(userId: string, at: Date): Promise<number>;
  /** Both participants' markers of each conversation (resynchronising realtime sockets). */
  findReadMarkers(ids: readonly string[]): Promise<ReadMarker[]>;
}

export interface MessageRepository {
  /**
   * One statement: unless the pair is blocked or the client_message_id was used, takes the next
   * seq under the conversation's row lock, inserts the message, moves the conversation's activity
   * and the sender's read marker to it, appends `event` to the outbox and signals every API
   * process (pg_notify, delivered on commit). Nothing is written unless the message is.
   */
  send(message: NewMessage, event: NewOutboxEvent): Promise<SendOutcome>;
  /**
   * Links the message to its media assets, in this order (in the sending transaction, after the
   * assets were attached to it).
   */
  setMedia(messageId: string, mediaAssetIds: readonly string[]): Promise<void>;
  findByClientMessageId(
    conversationId: string,
    senderId: string,
    clientMessageId: string,
  ): Promise<Message | null>;
  /**
   * A page in ascending seq: the newest `limit`, those just before a seq, or those just after one.
   * Held messages (negative seqs) are in none of these ranges; the newest page of `viewerId` ends
   * with their own held ones (oldest first), the only place anyone reads a held message.
   */
  listPage(
    conversationId: string,
    cursor: PageCursor,
    limit: number,
    viewerId?: string,
  ): Promise<MessagePage>;
  /**
   * Releases a held message as a send delivers one, in one statement: the conversation's next seq
   * (under the row lock sends take), its last_seq and activity (`at`), `message.sent` and the
   * realtime signal. False when the message is not held (released already, or never held).
   */
  release(messageId: string, at: Date): Promise<boolean>;
}

/** A new message as its notification needs it, loaded at delivery. */
export type MessageNotice = {
  conversationId: string;
  messageId: string;
  seq: number;
  senderName: string;
  recipientId: string;
  /** Whether the recipient has a realtime socket open on this conversation (then no push). */
  recipientConnected: boolean;
  /** The recipient's unread messages in the conversation now (0: they have read it, no push). */
  recipientUnread: number;
};

/** What delivering `message.sent` reads. */
export interface MessageNoticeReader {
  /**
   * The notice of the message, with the recipient's presence as of `liveSince`; null when gone, or
   * when the recipient mutes its sender (no inbox row, no push; docs/safety.md, "Mutes").
   */
  findNotice(messageId: string, liveSince: Date): Promise<MessageNotice | null>;
}

/**
 * The realtime sockets open now, shared by every API process: for "push only when no socket", and
 * for presence (a user is online while one of their rows is fresh; see `presenceVisible`). Rows
 * are written by one process and swept by others, so their freshness (`seen_at`) is the
 * database's clock, the one clock every process shares. Every write that can change a user's
 * presence signals it (pg_notify, delivered on commit).
 */
export interface ChatConnectionRepository {
  /** Records the socket (or refreshes it, when its row is there) and signals its user's presence. */
  add(connection: {
    id: string;
    instanceId: string;
    conversationId: string;
    userId: string;
    at: Date;
  }): Promise<void>;
  /** Forgets the socket, records its user last active now, and signals the user's presence. */
  remove(id: string): Promise<void>;
  /**
   * Marks the instance's sockets seen now; answers the ids it found (a row missing from them was
   * swept while this process could not refresh it: add it again).
   */
  touchInstance(instanceId: string): Promise<string[]>;
  /**
   * Forgets every row not seen for `staleAfterMs` (its process is gone), records each of their
   * users last active when their row was last seen, and signals each user's presence; rows another
   * process is sweeping are skipped. Answers how many rows it removed.
   */
  sweepStale(staleAfterMs: number): Promise<number>;
  /** Forgets every socket of the instance (it is shutting down), as `remove` does each. */
  removeInstance(instanceId: string): Promise<void>;
  /**
   * `userId`'s presence (online: a row seen within `staleAfterMs`), and which of `viewerIds` may
   * see it (`presenceVisible`: no block either way; the viewers are participants of a
   * conversation with the user, the sockets' grants say so).
   */
  findPresence(
    userId: string,
    viewerIds: readonly string[],
    staleAfterMs: number,
  ): Promise<{ presence: Presence; viewerIds: string[] }>;
  /**
   * Signals that `userId` is typing in the conversation, unless either participant blocks the
   * other (then nothing is signalled): one statement.
   */
  signalTyping(conversationId: string, userId: string, peerId: string): Promise<void>;
}

/** A committed chat change, as every API process hears it: ids and positions, never content. */
export type ChatSignal =
  | { type: "message"; conversationId: string; seq: number }
  /** The processing of an asset of message `seq` ended (ready or rejected): receivers send it again. */
  | { type: "media"; conversationId: string; seq: number }
  | { type: "read"; conversationId: string; userId: string; lastReadSeq: number; readAt: Date }
  /** The user is typing in the conversation (never signalled across a block). */
  | { type: "typing"; conversationId: string; userId: string }
  /** The user's presence may have changed: receivers read it (`findPresence`). */
  | { type: "presence"; userId: string };

export type ChatSignalListener = {
  /** A change that committed (in this process or another). */
  signal(signal: ChatSignal): void;
  /**
   * The feed was interrupted (its connection was lost and is back): signals may have been
   * missed, so listeners reload from what they last saw.
   */
  resync(): void;
};

/**
 * The fan-out: how every API process hears the chat changes any of them committed. Writers signal
 * inside their own statement (pg_notify, delivered only on commit), or, with a broker, the writing
 * process publishes the signal once its change committed; an adapter brings the signals to the
 * listener: PostgreSQL LISTEN on a dedicated connection, PGlite's in-process notifications, or a
 * NATS subscription.
 */
export interface ChatFanOut {
  /** Starts listening; resolves once signals flow. */
  start(listener: ChatSignalListener): Promise<void>;
  close(): Promise<void>;
  /** Whether signals can reach the listener now, for operators (`/ready`, `/metrics`). */
  state(): ChatFanOutState;
}

/**
 * A fan-out's connection as an operator sees it. `connected` is false before `start`, after
 * `close`, and while the connection is lost (signals committed meanwhile are not heard; the
 * listener resyncs once it is back). `reconnects` counts the times it came back.
 */
export type ChatFanOutState = { connected: boolean; reconnects: number };

export type ChatRepositories = MediaRepositories & {
  conversations: ConversationRepository;
  /** The unread count of the conversation list's `meta` (unreadTotal). */
  notifications: Pick<NotificationRepository, "countUnread">;
  messages: MessageRepository;
  users: Pick<UserRepository, "findById">;
  blocks: Pick<BlockRepository, "isBlockedEitherWay">;
};
