import type { ChatSignal } from "@agora/domain/chat/chat.ports";

/**
 * The one notification channel of chat changes. Writers call pg_notify inside their own statement,
 * so a signal is delivered only when its change commits, and never for one that rolled back.
 */
export const CHAT_CHANNEL = "agora_chat";

/**
 * Where a chat statement's signals go. `notify` (the default): pg_notify inside the statement,
 * delivered by PostgreSQL on commit to every LISTEN session. `publish`: the statement only computes
 * the same payloads and returns them, and the repository hands them to the sink once the change
 * committed (a broker, see chat-fan-out.ts): no NOTIFY, so no commit waits on its database-wide lock
 * (docs/performance.md, "The realtime fan-out's ceiling").
 */
export type SignalDelivery = "notify" | "publish";

/**
 * Takes the payloads of committed chat changes (JSON text, as decodeChatSignal reads them) to every
 * API process. Never throws: a payload it cannot pass on is reported by the sink itself.
 */
export type ChatSignalSink = { publish(payloads: readonly string[]): void };

/** The payload expression itself (`publish`), or pg_notify of it (`notify`). */
const emit = (delivery: SignalDelivery, payload: string) =>
  delivery === "notify" ? `pg_notify('${CHAT_CHANNEL}', ${payload})` : payload;

/**
 * The SQL of a message signal for the row source `alias` (conversation_id, seq): ids and positions
 * only, never content (NOTIFY payloads are limited to 8000 bytes, and receivers load the message).
 */
export const messageSignalSql = (alias: string, delivery: SignalDelivery = "notify") =>
  emit(delivery, `json_build_object('t', 'm', 'c', ${alias}.conversation_id, 's', ${alias}.seq)::text`);

/**
 * The SQL of a media signal for the row source `alias` (conversation_id, seq): the processing of an
 * asset of that message ended, so sockets that were sent it get it again (ids only, as above).
 */
export const mediaSignalSql = (alias: string, delivery: SignalDelivery = "notify") =>
  emit(delivery, `json_build_object('t', 'd', 'c', ${alias}.conversation_id, 's', ${alias}.seq)::text`);

/** The SQL of a read signal for `alias` (id, user_id, last_read_seq, read_at). */
export const readSignalSql = (alias: string, delivery: SignalDelivery = "notify") =>
  emit(
    delivery,
    `json_build_object('t', 'r', 'c', ${alias}.id, 'u', ${alias}.user_id,
     's', ${alias}.last_read_seq, 'a', (extract(epoch FROM ${alias}.read_at) * 1000)::bigint)::text`,
  );

/**
 * The SQL of a presence signal for the user id expression `userId`: "this user's presence may have
 * changed". Receivers read the presence itself (and who may see it), so signals can arrive in any
 * order, or twice, and the last one read still tells the truth.
 */
export const presenceSignalSql = (userId: string, delivery: SignalDelivery = "notify") =>
  emit(delivery, `json_build_object('t', 'p', 'u', ${userId})::text`);

/** The SQL of a typing signal: `userId` is typing in `conversationId` (expressions). */
export const typingSignalSql = (
  conversationId: string,
  userId: string,
  delivery: SignalDelivery = "notify",
) => emit(delivery, `json_build_object('t', 'y', 'c', ${conversationId}, 'u', ${userId})::text`);

/**
 * The column of a statement's final SELECT that returns the payloads of its CTE `cte` (whose one
 * column is the signal expression, named `payload`) when they are published, for `published`.
 */
export const payloadsColumn = (delivery: SignalDelivery, cte: string) =>
  delivery === "publish" ? `, ARRAY(SELECT payload FROM ${cte})::text[] AS payloads` : "";

/** A prepared statement's name in this delivery (the two texts differ; a name is one text). */
export const statementName = (name: string, delivery: SignalDelivery) =>
  delivery === "publish" ? `${name}_pub` : name;

/** Hands `payloads` (null or empty: none) to `sink` when the statement's signals are published. */
export const publishPayloads = (
  sink: ChatSignalSink | undefined,
  payloads: readonly string[] | null | undefined,
) => {
  if (sink && payloads && payloads.length > 0) {
    sink.publish(payloads);
  }
};

type Payload = { t?: unknown; c?: unknown; s?: unknown; u?: unknown; a?: unknown };

/** A payload of CHAT_CHANNEL as a signal; undefined for anything else (never throws). */
export const decodeChatSignal = (payload: string | undefined): ChatSignal | undefined => {
  if (!payload) {
    return undefined;
  }
  let parsed: Payload;
  try {
    parsed = JSON.parse(payload) as Payload;
  } catch {
    return undefined;
  }
  const { t, c, s, u, a } = parsed;
  if (t === "p") {
    return typeof u === "string" ? { type: "presence", userId: u } : undefined;
  }
  if (typeof c !== "string") {
    return undefined;
  }
  if (t === "y") {
    return typeof u === "string" ? { type: "typing", conversationId: c, userId: u } : undefined;
  }
  if (typeof s !== "number") {
    return undefined;
  }
  if (t === "m") {
    return { type: "message", conversationId: c, seq: s };
  }
  if (t === "d") {
    return { type: "media", conversationId: c, seq: s };
  }
  if (t === "r" && typeof u === "string" && typeof a === "number") {
    return { type: "read", conversationId: c, userId: u, lastReadSeq: s, readAt: new Date(a) };
  }

  return undefined;
};
