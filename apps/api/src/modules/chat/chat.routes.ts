import {
  conversationSchema,
  createConversationRequestSchema,
  messagePageMetaSchema,
  messagePageQuerySchema,
  messageSchema,
  readMarkerSchema,
  realtimeQuerySchema,
  sendMessageRequestSchema,
} from "@agora/contracts/chat";
import { idParamSchema } from "@agora/contracts/common";
import { successEnvelope } from "@agora/contracts/envelope";
import type { ChatDeps } from "@agora/domain/chat/chat.deps";
import { CHAT_PAGE_SIZE, MAX_MESSAGE_LENGTH, type PageCursor } from "@agora/domain/chat/chat.types";
import { createConversation } from "@agora/domain/chat/create-conversation";
import { listConversations } from "@agora/domain/chat/list-conversations";
import { listMessages } from "@agora/domain/chat/list-messages";
import { markRead } from "@agora/domain/chat/mark-read";
import { openChannel } from "@agora/domain/chat/open-channel";
import { sendMessage } from "@agora/domain/chat/send-message";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { AppError, ForbiddenError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { REPLAYED_HEADERS } from "../../http/idempotency";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok, switchingProtocols } from "../../http/respond";
import { CLOSE_CODES, MAX_FRAME_BYTES, PING_INTERVAL_MS } from "../../realtime/realtime-server";
import { toConversationDto, toMessageDto, toReadMarkerDto } from "./chat.presenter";

const tags = ["Chat"];
const secured = [{ bearerAuth: [] }];

const participantsOnly = "Participants only: for anyone else the conversation does not exist (404).";

const realtimeDescription = `A WebSocket per conversation. Send \`Authorization: Bearer <token>\` with the upgrade request.
The upgrade happens only when the token is valid (401), the caller is a participant (404) and the \`Origin\`
header, when present, is one of \`ALLOWED_ORIGINS\` (403; a request without Origin, a native app, is allowed).
A refusal is a plain HTTP response in the error envelope, never an upgrade followed by a close. A request
without \`Upgrade: websocket\` is 426 \`upgrade_required\`.

**Order and catch-up.** The persisted history is canonical. Messages are pushed after they commit, in \`seq\`
order, each once per socket, to every open socket of both participants (the sender's other devices too).
With \`after=<seq>\` the socket first sends every message after that seq, then live ones: a client that
reconnects with \`after=<last seq it saw>\` gets everything it missed, in order, none twice. Without
\`after\` it starts at the newest message; open the socket, then fetch \`GET …/messages?after=<seq>\` and
drop frames whose \`seq\` you already have. Server processes share changes through PostgreSQL
LISTEN/NOTIFY, so a message sent through any API process reaches sockets on every process.

**Server → client frames** (JSON text):
- \`{ "type": "message", "data": <Message> }\` — a new message (the Message shape, with \`seq\`);
- \`{ "type": "read", "data": { "conversation_id", "user_id", "read_at", "last_read_seq" } }\` — a participant's read marker moved;
- \`{ "type": "pong" }\` — the answer to a ping frame;
- \`{ "type": "error", "data": { "code": "unsupported_frame", "message" } }\` — the answer to a text frame that is not \`{"type":"ping"}\` (not JSON, or an unknown type); the frame is ignored and the socket stays open.

**Client → server frames**: \`{ "type": "ping" }\` only (messages are sent with \`POST …/messages\`). A frame
larger than ${MAX_FRAME_BYTES} bytes closes the socket with 1009; a binary frame closes it with 1003.

**Keepalive.** The server sends a WebSocket ping every ${PING_INTERVAL_MS / 1000} s; a socket that has not
answered the previous ping by then is terminated (browsers and WebSocket libraries answer pings
themselves).

**Close codes.** 1001 the server is shutting down (reconnect with \`after\`); 1003 binary frame; 1009 frame
too large; ${CLOSE_CODES.sessionEnded} the session ended (logout, suspension or account deletion; checked every few seconds):
refresh or sign in again; ${CLOSE_CODES.tooSlow} the client read too slowly and fell more than 1 MiB behind (reconnect
with \`after\`). The socket lives as long as its session, not its access token.`;

/** 403 unless the Origin is absent (a native app) or one of ALLOWED_ORIGINS. */
const assertOriginAllowed = (origin: string | undefined, allowed: readonly string[]) => {
  if (origin !== undefined && !allowed.includes(origin.toLowerCase())) {
    throw new ForbiddenError("This Origin may not open the realtime channel.");
  }
};

/** Mounted at /api/v1. */
export const createChatRoutes = ({
  identity,
  chat,
  allowedOrigins,
}: {
  identity: IdentityDeps;
  chat: ChatDeps;
  allowedOrigins: readonly string[];
}) => {
  const auth = requireAuth(identity);
  const origins = allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, ""));

  const list = createRoute({
    method: "get",
    path: "/chat/conversations",
    tags,
    summary: "The caller's conversations",
    description:
      `The ${CHAT_PAGE_SIZE} most recently active, newest activity first (activity: creation, then each message). ` +
      "Each carries both participant ids, the newest message (null before the first) and `unread_count`: the " +
      "other participant's messages after the caller's read marker. Sending a message moves the sender's own " +
      "marker to it (sending implies having read what came before).",
    security: secured,
    middleware: [auth],
    responses: {
      200: json(successEnvelope(z.array(conversationSchema)), "Up to 50 conversations."),
      ...errors("unauthorized"),
    },
  });

  const create = createRoute({
    method: "post",
    path: "/chat/conversations",
    tags,
    summary: "Start (or reopen) the conversation with a user",
    description:
      "A pair of users has one conversation, whoever starts it: 201 with it whether it was created now or " +
      "existed (parallel creates from both sides make one). Yourself is 422; an unknown or deleted user 404; " +
      "403 when either of you has blocked the other.",
    security: secured,
    middleware: [auth],
    request: body(createConversationRequestSchema),
    responses: {
      201: json(successEnvelope(conversationSchema), "The pair's conversation."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed"),
    },
  });

  const messages = createRoute({
    method: "get",
    path: "/chat/conversations/{id}/messages",
    tags,
    summary: "A page of messages",
    description:
      `Always in ascending \`seq\` (oldest first) inside the page. Without a cursor: the newest ${CHAT_PAGE_SIZE}. ` +
      `\`before=<seq>\`: the ${CHAT_PAGE_SIZE} just before it (page back). \`after=<seq>\`: the first ${CHAT_PAGE_SIZE} ` +
      "after it (catch up; repeat with the last seq while `meta.has_more`). Not both (422). " +
      `${participantsOnly}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, query: messagePageQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(messageSchema), messagePageMetaSchema), "The page."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  const send = createRoute({
    method: "post",
    path: "/chat/conversations/{id}/messages",
    tags,
    summary: "Send a message",
    description:
      `The sender is the caller. \`body\` is trimmed and must keep 1 to ${MAX_MESSAGE_LENGTH} characters (422). ` +
      "The message gets the conversation's next `seq`, is committed, then pushed to both participants' " +
      "realtime sockets; a participant with no socket open on the conversation gets a push notification " +
      "(one per conversation on the device: newer ones replace older). `client_message_id` makes retries " +
      "safe: the same id from the same sender in the same conversation answers 201 with the first message " +
      "and `Idempotent-Replayed: true`, stores nothing new (also when retries race), and never expires; " +
      "the same id with another body or type is 409 `idempotency_conflict`. 403 when either participant has " +
      `blocked the other. ${participantsOnly}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(sendMessageRequestSchema) },
    responses: {
      201: json(successEnvelope(messageSchema), "Sent (or the retried message)."),
      ...errors("unauthorized", "forbidden", "not_found", "idempotency_conflict", "validation_failed"),
    },
  });

  const read = createRoute({
    method: "post",
    path: "/chat/conversations/{id}/read",
    tags,
    summary: "Mark the conversation read",
    description:
      "Moves the caller's read marker to the newest message (`last_read_seq`) and `read_at` to now; it never " +
      "moves back, so a late or repeated call is harmless. The other participant's sockets (and the caller's " +
      `other devices) get a \`read\` frame. ${participantsOnly}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(readMarkerSchema), "The caller's marker."),
      ...errors("unauthorized", "not_found"),
    },
  });

  const realtime = createRoute({
    method: "get",
    path: "/chat/conversations/{id}/realtime",
    tags,
    summary: "The conversation's realtime channel (WebSocket)",
    description: realtimeDescription,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, query: realtimeQuerySchema },
    responses: {
      101: { description: "Switching Protocols: the WebSocket is open (frames in the description)." },
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed", "upgrade_required"),
    },
  });

  return createRouter()
    .openapi(list, async (c) => ok(c, (await listConversations(chat, actorOf(c))).map(toConversationDto)))
    .openapi(create, async (c) => {
      const conversation = await createConversation(chat, actorOf(c), c.req.valid("json").other_user_id);

      return ok(c, toConversationDto(conversation), { status: 201 });
    })
    .openapi(messages, async (c) => {
      const query = c.req.valid("query");
      const cursor: PageCursor =
        query.before !== undefined
          ? { before: query.before }
          : query.after !== undefined
            ? { after: query.after }
            : { newest: true };
      const page = await listMessages(chat, actorOf(c), c.req.valid("param").id, cursor);

      return ok(c, page.messages.map(toMessageDto), {
        meta: { limit: CHAT_PAGE_SIZE, has_more: page.hasMore },
      });
    })
    .openapi(send, async (c) => {
      const input = c.req.valid("json");
      const sent = await sendMessage(chat, actorOf(c), {
        conversationId: c.req.valid("param").id,
        body: input.body,
        messageType: input.message_type,
        clientMessageId: input.client_message_id,
      });

      return ok(c, toMessageDto(sent.message), {
        status: 201,
        ...(sent.replayed ? { headers: { ...REPLAYED_HEADERS } } : {}),
      });
    })
    .openapi(read, async (c) =>
      ok(c, toReadMarkerDto(await markRead(chat, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(realtime, async (c) => {
      const grant = await openChannel(chat, actorOf(c), c.req.valid("param").id, c.req.valid("query").after);
      assertOriginAllowed(c.req.header("origin"), origins);
      const slot = c.env.upgrade;
      if (!slot) {
        throw new AppError("upgrade_required", "This route only answers WebSocket upgrade requests.", {
          headers: { Upgrade: "websocket" },
        });
      }
      slot.grant = grant;

      return switchingProtocols(c) as never;
    });
};
