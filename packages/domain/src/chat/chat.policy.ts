import type { Conversation, Message, ReadMarker, SendRefusal } from "./chat.types";

// Chat's rules, each stated here by name. The statements that enforce them
// (packages/db/src/repositories/chat/) do it in SQL, each inside one statement so it holds under
// concurrency without a second round trip; each such statement names the rule it implements, and
// each rule below names its statements.

/**
 * The pair as stored: the smaller id first, so both sides of a pair name the same row (and the
 * unique index on the ordered pair makes parallel creates from both sides meet).
 */
export const orderedPair = (userId: string, otherId: string): [string, string] =>
  userId < otherId ? [userId, otherId] : [otherId, userId];

/**
 * Participation: a conversation is its two participants'. Only they read its messages, send to
 * it, move their read marker in it or open its realtime channel; anyone else is answered as if it
 * did not exist (404: who talks to whom is theirs to know). Mirrors the SQL function of the same
 * name (`chat_participant`, migration 20261210000100_chat_participation_rule), which
 * `participantSql` (conversations.repository.ts) calls in findForParticipant (reading, the
 * channel), markRead and the send statement (messages.repository.ts);
 * packages/db/test/chat-participation.int.test.ts proves they agree.
 */
export const chatParticipant = (
  userId: string,
  conversation: Pick<Conversation, "participantIds">,
): boolean => conversation.participantIds.includes(userId);

/**
 * Blocks: while either participant blocks the other, nothing is sent between them (403 blocked,
 * nothing stored; typing is not passed on either), and no conversation is started between them
 * (createConversation checks the community's block rule, blocks.policy.ts); what was sent before
 * stays readable. Why a send stores nothing, from its facts, in this order: participation first
 * (a stranger learns nothing of the pair's blocks), then blocks; null when it goes ahead. Mirrors
 * the SQL function of the same name (`chat_send_refusal`, migration
 * 20261210000100_chat_participation_rule): the send statement (messages.repository.ts) reads the
 * block in the statement that stores the message, so a block committed before the send is never
 * missed, and stores the message only when the function says null; the typing signal
 * (signalTyping) is passed on only then. packages/db/test/chat-participation.int.test.ts proves
 * they agree.
 */
export const chatSendRefusal = (facts: {
  participant: boolean;
  blockedEitherWay: boolean;
}): SendRefusal | null => {
  if (!facts.participant) {
    return "not_found";
  }

  return facts.blockedEitherWay ? "blocked" : null;
};

/**
 * Sending marks as read: whoever sends a message has read the conversation up to it, so a send
 * moves the sender's read marker to the new message (its seq and its time) and leaves the other
 * participant's where it was. Hence unreadCount counts only the other participant's messages. In
 * SQL it is the `moved` step of the send statement (messages.repository.ts), which moves the
 * sender's marker with the conversation's last seq, in the statement that stores the message.
 */
export const markersAfterSend = (
  markers: readonly ReadMarker[],
  message: Pick<Message, "senderId" | "seq" | "createdAt">,
): ReadMarker[] =>
  markers.map((marker) =>
    marker.userId === message.senderId
      ? { ...marker, lastReadSeq: message.seq, readAt: message.createdAt }
      : marker,
  );

/**
 * Reading: marking a conversation read moves the caller's marker to its newest message, and
 * neither the marker nor its time ever moves back (a late or repeated request changes nothing
 * that was newer). In SQL it is markRead (conversations.repository.ts): the seq becomes last_seq
 * (which never decreases, and no marker passes it) and the time moves by GREATEST.
 */
export const markerAfterRead = (marker: ReadMarker, lastSeq: number, at: Date): ReadMarker => ({
  ...marker,
  lastReadSeq: Math.max(marker.lastReadSeq, lastSeq),
  readAt: marker.readAt !== null && marker.readAt.getTime() > at.getTime() ? marker.readAt : at,
});

/**
 * Unread: the messages after the viewer's marker (by "sending marks as read", the other
 * participant's). In SQL it is the unread_count of the conversation summaries
 * (conversations.repository.ts).
 */
export const unreadCount = (
  conversation: Pick<Conversation, "lastSeq">,
  marker: Pick<ReadMarker, "lastReadSeq">,
): number => conversation.lastSeq - marker.lastReadSeq;

/**
 * Presence: a user's presence (online, last active) is seen only by people who share a
 * conversation with them (the realtime sockets of their conversations' other participants), and
 * never across a block either way. In SQL it is findPresence (chat-connections.repository.ts),
 * which keeps the viewers with no block with the user; the viewers come from the sockets' grants,
 * each a participant of a conversation with the user.
 */
export const presenceVisible = (facts: { sharesConversation: boolean; blockedEitherWay: boolean }): boolean =>
  facts.sharesConversation && !facts.blockedEitherWay;

/**
 * Typing: a socket's `typing` frame is passed on to the other participant when none was in the
 * last `intervalMs` (the wire's typing interval; `lastAcceptedAt`, ms, is the socket's last one),
 * and never across a block (the signal statement, signalTyping, checks it with chat_send_refusal,
 * chatSendRefusal's SQL twin); an extra frame is dropped silently.
 */
export const typingAccepted = (
  lastAcceptedAt: number | undefined,
  now: number,
  intervalMs: number,
): boolean => lastAcceptedAt === undefined || now - lastAcceptedAt >= intervalMs;

/**
 * Presence timing, from the presence timeout (PRESENCE_TIMEOUT_SECONDS): the longest a user whose
 * process died may still show online. Each process refreshes its sockets' rows every quarter of
 * it and sweeps rows stale for three quarters of it, every quarter: a row last refreshed at t is
 * swept, and its user shown offline, by t + timeout at the latest, while a live row is never
 * older than a quarter (half the timeout of margin for a slow refresh).
 */
export const presenceTimings = (timeoutMs: number) => ({
  refreshMs: Math.max(1, Math.floor(timeoutMs / 4)),
  staleAfterMs: Math.floor((timeoutMs * 3) / 4),
});
