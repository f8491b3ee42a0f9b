import { z } from "zod";
import { idParamSchema, timestampSchema } from "./common";
import { mediaAssetIdsSchema, mediaItemSchema } from "./media";
import { positionCursorQuerySchema, unreadPageMetaSchema } from "./notifications";
import { defineOperations } from "./operation";

/** Longest message body, in characters, after trimming. */
const MESSAGE_MAX_LENGTH = 4000;

/** Most media assets one message carries. */
const MESSAGE_MAX_MEDIA = 5;

/** A non-negative integer from the query string (a seq cursor); absent when empty. */
const seqQuery = (description: string) =>
  z.preprocess(
    (value) => {
      if (value === undefined || value === "") {
        return undefined;
      }
      const text = String(value).trim();

      return /^\d+$/.test(text) ? Number(text) : Number.NaN;
    },
    z
      .number({ error: "must be a non-negative integer" })
      .int("must be a non-negative integer")
      .min(0, "must be a non-negative integer")
      .max(2_147_483_647, "is too large")
      .optional()
      .meta({ description }),
  );

export const messageSchema = z
  .object({
    id: z.string(),
    conversation_id: z.string(),
    seq: z
      .number()
      .int()
      .meta({
        description:
          "1, 2, 3 … within the conversation, without gaps: the one order both participants see, and the cursor of " +
          "`before`/`after`. A held message (`held`) has a negative seq, outside that order, until a moderator " +
          "releases it: then it takes the conversation's next seq (read it again to see it).",
      }),
    sender_id: z.string(),
    body: z.string(),
    message_type: z.enum(["text"]),
    client_message_id: z.string().nullable(),
    created_at: timestampSchema,
    held: z.boolean().meta({
      description:
        "A content filter holds it for a moderator: only its sender sees it (in the newest page, after the " +
        "others), the other participant gets nothing (history, catch-up, sockets, conversation list, " +
        "notices) until it is released, then gets it as a new message.",
    }),
    media: z.array(mediaItemSchema).meta({
      description:
        "Its images (or videos), in the order sent; empty for a text-only message. Each is `processing` " +
        "(no URLs) until the server has checked it and stripped its metadata, then `ready`; one rejected " +
        "after it was sent shows `rejected` to its sender and is left out for the other participant. " +
        "Private: the URLs are signed for each read, for the two participants only, and work 5 minutes.",
    }),
  })
  .meta({ id: "Message" });
export type MessageDto = z.infer<typeof messageSchema>;

export const conversationSchema = z
  .object({
    id: z.string(),
    participant_ids: z.array(z.string()).length(2).meta({ description: "Both user ids, ascending." }),
    last_message: z.union([messageSchema, z.null()]),
    unread_count: z.number().int().min(0).meta({
      description: "The other participant's messages after the caller's read marker.",
    }),
    updated_at: timestampSchema.meta({ description: "Last activity: creation, then each new message." }),
  })
  .meta({ id: "Conversation" });
export type ConversationDto = z.infer<typeof conversationSchema>;

export const createConversationRequestSchema = z
  .object({
    other_user_id: z.string().min(1).meta({ description: "The other participant; not the caller." }),
  })
  .meta({ example: { other_user_id: "01935c2e-8a10-7c22-8d3e-4f5a6b7c8d9e" } });

export const sendMessageRequestSchema = z
  .object({
    body: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MESSAGE_MAX_LENGTH, `must be at most ${MESSAGE_MAX_LENGTH} characters`)
      .meta({ description: `Trimmed; 1 to ${MESSAGE_MAX_LENGTH} characters.` }),
    message_type: z.enum(["text"]).default("text").meta({ description: "`text` (the default)." }),
    client_message_id: z.string().min(1).max(100).optional().meta({
      description:
        "The client's id for safe retries (1-100 characters), unique per sender and conversation: a retry answers the first message.",
    }),
    media_asset_ids: mediaAssetIdsSchema(MESSAGE_MAX_MEDIA, "message")
      .optional()
      .meta({
        description:
          `Up to ${MESSAGE_MAX_MEDIA} of your own media assets uploaded for \`message\`, each once, in order, ` +
          "right after their upload: the message is sent at once and shows each `processing`, without URLs, " +
          "until it is ready (a `message_media` frame then carries the message again); 422 for bytes already " +
          "`rejected`. Each goes on this message only and stays private: only the two participants read it. " +
          "The body is still required.",
      }),
  })
  .meta({
    example: {
      body: "Is Saturday at 10:00 still free?",
      message_type: "text",
      client_message_id: "msg-2024-0001",
      media_asset_ids: ["01935c2f-0c32-7e44-8f50-6b7c8d9eafb0"],
    },
  });

export const messagePageQuerySchema = z
  .object({
    before: seqQuery("Page back: the 50 messages just before this seq."),
    after: seqQuery("Catch up: the first 50 messages after this seq (0 = from the start)."),
  })
  .refine((query) => query.before === undefined || query.after === undefined, {
    message: "give before or after, not both",
    path: ["after"],
  });

export const messagePageMetaSchema = z.object({
  limit: z.number().int(),
  has_more: z.boolean().meta({
    description:
      "Whether more messages lie in the page's direction: older ones (newest page, `before`) or newer ones (`after`).",
  }),
});

export const readMarkerSchema = z
  .object({
    conversation_id: z.string(),
    user_id: z.string(),
    read_at: timestampSchema
      .nullable()
      .meta({ description: "When the marker last moved; null before any read." }),
    last_read_seq: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Every message up to this seq is read (0: none)." }),
  })
  .meta({ id: "ReadMarker" });
export type ReadMarkerDto = z.infer<typeof readMarkerSchema>;

export const realtimeQuerySchema = z.object({
  after: seqQuery(
    "Resume: the socket first sends every message after this seq, in order, then live ones; absent = live ones only.",
  ),
});

/**
 * The realtime channel's wire constants, defined here once: the server sends them, and the client
 * helper (`@agora/contracts/realtime`, which re-exports them) and the tests read them.
 */
export const realtimeFrameTypes = {
  /** Server → client: a new message. */
  message: "message",
  /**
   * Server → client: the media of a message this socket was sent finished processing (ready, or
   * rejected: then its sender sees it `rejected` and the other participant no longer sees it). The
   * data is the whole message as this participant reads it now: replace it by `id`.
   */
  messageMedia: "message_media",
  /** Server → client: a participant's read marker moved. */
  read: "read",
  /** Server → client: the answer to a ping frame. */
  pong: "pong",
  /** Server → client: a text frame it does not understand (ignored; the socket stays open). */
  error: "error",
  /**
   * Client → server: the caller is typing (passed on at most once per 2 s per socket, extra ones are
   * dropped silently); server → client: the other participant is typing.
   */
  typing: "typing",
  /** Server → client: the other participant's presence (on open, then on each change). */
  presence: "presence",
  /** Client → server: asks for a pong. */
  ping: "ping",
} as const;

/** The `data.code` of an error frame. */
export const realtimeErrorCodes = { unsupportedFrame: "unsupported_frame" } as const;

/** The close codes of the realtime channel's sockets. */
export const realtimeCloseCodes = {
  /** The client closed the socket for good. */
  normal: 1000,
  /** The server is shutting down: reconnect with `after`. */
  serverShutdown: 1001,
  /** A binary frame: only JSON text frames are understood. */
  binaryFrame: 1003,
  /** A frame over `realtimeLimits.maxFrameBytes`. */
  frameTooLarge: 1009,
  /**
   * Try again later: the client read too slowly and fell too far behind, or the process holds its
   * most sockets (the reason says which); reconnect with `after`, after a backoff.
   */
  tooSlow: 1013,
  /** The session ended (logout, suspension or account deletion): refresh or sign in again. */
  sessionEnded: 4401,
} as const;

export const realtimeLimits = {
  /** The largest frame a client may send. */
  maxFrameBytes: 1024,
  /** The server's keepalive: a WebSocket ping this often; a socket that missed the last is cut. */
  pingIntervalMs: 25_000,
  /** A socket's typing frames: one is passed on per this interval, the others are dropped. */
  typingIntervalMs: 2_000,
} as const;

/**
 * A client that cannot set `Authorization` (a browser) offers the subprotocols
 * `[realtimeProtocols.channel, realtimeProtocols.bearerPrefix + token]`; the server answers the
 * first one, never the token.
 */
export const realtimeProtocols = {
  /** The channel's subprotocol: the server selects it whenever it is offered. */
  channel: "agora.v1",
  /** The prefix of the subprotocol that carries the access token (`bearer.<token>`). */
  bearerPrefix: "bearer.",
} as const;
export const typingFrameDataSchema = z
  .object({
    conversation_id: z.string(),
    user_id: z.string().meta({ description: "Who is typing: the other participant." }),
  })
  .meta({ id: "TypingFrameData" });
export type TypingDto = z.infer<typeof typingFrameDataSchema>;

export const presenceSchema = z
  .object({
    user_id: z.string(),
    online: z
      .boolean()
      .meta({ description: "Whether the user has a realtime socket open (any conversation)." }),
    last_active_at: timestampSchema.nullable().meta({
      description:
        "When the user was last seen connected (while online, the latest heartbeat); null when never.",
    }),
  })
  .meta({ id: "Presence" });
export type PresenceDto = z.infer<typeof presenceSchema>;

/** Frames the server sends on the realtime channel (JSON text frames). */
export const serverFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal(realtimeFrameTypes.message), data: messageSchema }),
  z.object({ type: z.literal(realtimeFrameTypes.messageMedia), data: messageSchema }),
  z.object({ type: z.literal(realtimeFrameTypes.read), data: readMarkerSchema }),
  z.object({ type: z.literal(realtimeFrameTypes.pong) }),
  z.object({
    type: z.literal(realtimeFrameTypes.error),
    data: z.object({ code: z.literal(realtimeErrorCodes.unsupportedFrame), message: z.string() }),
  }),
  z.object({ type: z.literal(realtimeFrameTypes.typing), data: typingFrameDataSchema }),
  z.object({ type: z.literal(realtimeFrameTypes.presence), data: presenceSchema }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/**
 * Frames a client sends (JSON text, at most `realtimeLimits.maxFrameBytes`). Extra keys are
 * ignored; anything else is answered with an error frame.
 */
export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal(realtimeFrameTypes.ping) }),
  z.object({ type: z.literal(realtimeFrameTypes.typing) }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

const tags = ["Chat"];

/** One conversation per pair of users: its messages, read markers and realtime channel. */
export const chatOperations = defineOperations({
  conversationsList: {
    method: "GET",
    path: "/api/v1/chat/conversations",
    auth: "bearer",
    tags,
    summary: "The caller's conversations",
    query: positionCursorQuerySchema,
    responses: {
      200: {
        description: "Up to 50 conversations, most recently active first.",
        data: z.array(conversationSchema),
        meta: unreadPageMetaSchema,
      },
    },
    errors: ["unauthorized", "validation_failed"],
  },
  conversationsCreate: {
    method: "POST",
    path: "/api/v1/chat/conversations",
    auth: "bearer",
    writeLimit: "conversations",
    tags,
    summary: "Start (or reopen) the conversation with a user",
    idempotencyKey: "optional",
    body: createConversationRequestSchema,
    responses: { 201: { description: "The pair's conversation.", data: conversationSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed"],
  },
  messagesList: {
    method: "GET",
    path: "/api/v1/chat/conversations/{id}/messages",
    auth: "bearer",
    tags,
    summary: "A page of messages",
    params: idParamSchema,
    query: messagePageQuerySchema,
    responses: {
      200: { description: "The page.", data: z.array(messageSchema), meta: messagePageMetaSchema },
    },
    errors: ["unauthorized", "not_found", "validation_failed"],
  },
  messagesSend: {
    method: "POST",
    path: "/api/v1/chat/conversations/{id}/messages",
    auth: "bearer",
    writeLimit: "chat_messages",
    tags,
    summary: "Send a message",
    idempotencyKey: "optional",
    params: idParamSchema,
    body: sendMessageRequestSchema,
    responses: { 201: { description: "Sent (or the retried message).", data: messageSchema } },
    errors: [
      "unauthorized",
      "forbidden",
      "not_found",
      "idempotency_conflict",
      "validation_failed",
      "storage_unavailable",
      "content_blocked",
    ],
  },
  conversationsMarkRead: {
    method: "POST",
    path: "/api/v1/chat/conversations/{id}/read",
    auth: "bearer",
    tags,
    summary: "Mark the conversation read",
    params: idParamSchema,
    responses: { 200: { description: "The caller's marker.", data: readMarkerSchema } },
    errors: ["unauthorized", "not_found"],
  },
  conversationsRealtime: {
    method: "GET",
    path: "/api/v1/chat/conversations/{id}/realtime",
    auth: "bearer",
    tags,
    summary: "The conversation's realtime channel (WebSocket)",
    params: idParamSchema,
    query: realtimeQuerySchema,
    responses: {
      101: { description: "Switching Protocols: the WebSocket is open (frames in the description)." },
    },
    errors: [
      "unauthorized",
      "forbidden",
      "not_found",
      "validation_failed",
      "rate_limited",
      "upgrade_required",
    ],
  },
});
