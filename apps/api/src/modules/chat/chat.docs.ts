import type { chatOperations } from "@agora/contracts/chat";
import { realtimeCloseCodes as close, realtimeLimits, realtimeProtocols } from "@agora/contracts/realtime";
import { CHAT_PAGE_SIZE, MAX_MESSAGE_LENGTH } from "@agora/domain/chat/chat.types";
import type { DescriptionsOf } from "../../http/operations";
import { recordMediaRule } from "../media/media.docs";

const participantsOnly = "Participants only: for anyone else the conversation does not exist (404).";

const realtimeDescription = `A WebSocket per conversation. Send \`Authorization: Bearer <token>\` with the upgrade request.
The upgrade happens only when the token is valid (401), the caller is a participant (404) and the \`Origin\`
header, when present, is one of \`ALLOWED_ORIGINS\` (403; a request without Origin, a native app, is allowed).
A refusal is a plain HTTP response in the error envelope, never an upgrade followed by a close. A request
without \`Upgrade: websocket\` is 426 \`upgrade_required\`.

**From a browser.** A browser's WebSocket cannot send \`Authorization\`: offer the subprotocols
\`${realtimeProtocols.channel}\` and \`${realtimeProtocols.bearerPrefix}<token>\` instead
(\`new WebSocket(url, ["${realtimeProtocols.channel}", "${realtimeProtocols.bearerPrefix}" + token])\`). The token is checked exactly as the
header's (the header wins when both are sent; \`${realtimeProtocols.bearerPrefix}<token>\` without \`${realtimeProtocols.channel}\` is ignored), and the
answer selects \`Sec-WebSocket-Protocol: ${realtimeProtocols.channel}\`, never the token. The server selects \`${realtimeProtocols.channel}\` whenever it is
offered, also beside the header.

**Socket limits.** One API process holds at most a few sockets of one session on one conversation
(\`REALTIME_SOCKETS_PER_CONVERSATION\`, default 4), of one session (\`REALTIME_SOCKETS_PER_SESSION\`, 50) and of
one user (\`REALTIME_SOCKETS_PER_USER\`, 100). Past one, the upgrade is refused with 429 \`rate_limited\` and
\`Retry-After\` (close a socket you no longer need). A process holding \`REALTIME_MAX_SOCKETS\` (10,000) sockets
completes the upgrade and closes it at once with ${close.tooSlow} (\`server full\`): reconnect after a backoff.

**Order and catch-up.** The persisted history is canonical. Messages are pushed after they commit, in \`seq\`
order, each once per socket, to every open socket of both participants (the sender's other devices too).
With \`after=<seq>\` the socket first sends every message after that seq, then live ones: a client that
reconnects with \`after=<last seq it saw>\` gets everything it missed, in order, none twice. Without
\`after\` it starts at the newest message; open the socket, then fetch \`GET …/messages?after=<seq>\` and
drop frames whose \`seq\` you already have. Server processes share changes through PostgreSQL
LISTEN/NOTIFY, so a message sent through any API process reaches sockets on every process.

**Server → client frames** (JSON text):
- \`{ "type": "message", "data": <Message> }\` — a new message (the Message shape, with \`seq\` and its \`media\`, URLs signed for 5 minutes; an image still being processed is \`processing\`, without URLs);
- \`{ "type": "message_media", "data": <Message> }\` — the processing of an image of a message this socket was sent ended: the whole message again, as this participant reads it now (its image \`ready\` with its URLs; one rejected shows \`rejected\` to its sender and is left out for the other participant). Replace the message by \`id\`;
- \`{ "type": "read", "data": { "conversation_id", "user_id", "read_at", "last_read_seq" } }\` — a participant's read marker moved;
- \`{ "type": "typing", "data": { "conversation_id", "user_id" } }\` — the other participant is typing (show it for a few seconds; at most one per ${realtimeLimits.typingIntervalMs / 1000} s per socket of theirs);
- \`{ "type": "presence", "data": { "user_id", "online", "last_active_at" } }\` — the other participant's presence: once when the socket opens, then on each change. \`online\` while they have a realtime socket open on any conversation; \`last_active_at\` is when they were last seen connected (null: never);
- \`{ "type": "pong" }\` — the answer to a ping frame;
- \`{ "type": "error", "data": { "code": "unsupported_frame", "message" } }\` — the answer to a text frame that is not \`{"type":"ping"}\` or \`{"type":"typing"}\` (not JSON, or an unknown type); the frame is ignored and the socket stays open.

**Client → server frames**: \`{ "type": "ping" }\` and \`{ "type": "typing" }\` (messages are sent with \`POST …/messages\`). A
typing frame is passed on to the other participant's sockets when the socket sent none in the last ${realtimeLimits.typingIntervalMs / 1000} s; extra
ones are dropped silently (no answer), so a client may send one per keystroke. A frame
larger than ${realtimeLimits.maxFrameBytes} bytes closes the socket with ${close.frameTooLarge}; a binary frame closes it with ${close.binaryFrame}.

**Typing and presence** reach sockets on every server process, like messages. Presence is only ever sent to
the participants of a conversation with that user, and neither presence nor typing crosses a block (either
way): a blocked user gets no frame of the other. A user whose server process stops without closing their
sockets (a crash) shows offline within \`PRESENCE_TIMEOUT_SECONDS\` (60 s by default); a closed socket at once.

**Keepalive.** The server sends a WebSocket ping every ${realtimeLimits.pingIntervalMs / 1000} s; a socket that has not
answered the previous ping by then is terminated (browsers and WebSocket libraries answer pings
themselves).

**Close codes.** ${close.serverShutdown} the server is shutting down (reconnect with \`after\`); ${close.binaryFrame} binary frame; ${close.frameTooLarge} frame
too large; ${close.sessionEnded} the session ended (logout, suspension or account deletion; checked every few seconds):
refresh or sign in again; ${close.tooSlow} try again later: the client read too slowly and fell more than 1 MiB behind,
or the process was full (reconnect with \`after\`, after a backoff). The socket lives as long as its session, not its access token.`;

/** The chat operations' OpenAPI descriptions, by operationId. */
export const chatDescriptions = {
  conversationsList:
    `The ${CHAT_PAGE_SIZE} most recently active, newest activity first (activity: creation, then each message). ` +
    "Each carries both participant ids, the newest message (null before the first) and `unread_count`: the " +
    "other participant's messages after the caller's read marker. Sending a message moves the sender's own " +
    "marker to it (sending implies having read what came before). `meta.next_before` (or null on the last " +
    "page) pages on with `before`: a walk lists every conversation that existed at its first page exactly " +
    "once, in the order of that moment, even while messages arrive (those that moved, and new ones, are on " +
    "the next first page). A malformed `before` is 422. `meta.unread_count` is the caller's unread count " +
    "(the same as the inbox's and the push badge): unread notices other than chat plus every conversation's " +
    "`unread_count`.",
  conversationsCreate:
    "A pair of users has one conversation, whoever starts it: 201 with it whether it was created now or " +
    "existed (parallel creates from both sides make one). Yourself is 422; an unknown or deleted user 404; " +
    "403 when either of you has blocked the other.",
  messagesList:
    `Always in ascending \`seq\` (oldest first) inside the page. Without a cursor: the newest ${CHAT_PAGE_SIZE}. ` +
    `\`before=<seq>\`: the ${CHAT_PAGE_SIZE} just before it (page back). \`after=<seq>\`: the first ${CHAT_PAGE_SIZE} ` +
    "after it (catch up; repeat with the last seq while `meta.has_more`). Not both (422). " +
    `${participantsOnly}`,
  messagesSend:
    `The sender is the caller. \`body\` is trimmed and must keep 1 to ${MAX_MESSAGE_LENGTH} characters (422). ` +
    "The message gets the conversation's next `seq`, is committed, then pushed to both participants' " +
    "realtime sockets; a participant with no socket open on the conversation gets a push notification " +
    "(one per conversation on the device: newer ones replace older). `client_message_id` makes retries " +
    "safe: the same id from the same sender in the same conversation answers 201 with the first message " +
    "and `Idempotent-Replayed: true`, stores nothing new (also when retries race), and never expires; " +
    "the same id with another body, type or media is 409 `idempotency_conflict`. 403 when either participant " +
    "has blocked the other. " +
    "`media_asset_ids`: up to 5 of the caller's own assets uploaded for `message`, each once, in order; the " +
    `body stays required. Each is ${recordMediaRule} (503 \`storage_unavailable\` when the object store does ` +
    "not answer); when one is ready or rejected, the conversation's open sockets get the message again in a " +
    "`message_media` frame. They stay private: the message's " +
    "`media` (here, in `GET …/messages`, in `last_message` and in the realtime frame) carries URLs signed for " +
    "each read, valid 5 minutes, and `GET /api/v1/media/{id}` answers the two participants only (403 to " +
    `anyone else). ${participantsOnly}`,
  conversationsMarkRead:
    "Moves the caller's read marker to the newest message (`last_read_seq`) and `read_at` to now; it never " +
    "moves back, so a late or repeated call is harmless. The other participant's sockets (and the caller's " +
    `other devices) get a \`read\` frame; the caller's chat notice of the conversation in the inbox is read with it. ${participantsOnly}`,
  conversationsRealtime: realtimeDescription,
} satisfies DescriptionsOf<typeof chatOperations>;
