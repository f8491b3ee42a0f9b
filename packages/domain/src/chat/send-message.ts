import { BlockedError } from "../community/blocks.policy";
import type { Actor } from "../shared/actor";
import { NotFoundError, ValidationError } from "../shared/app-error";
import type { ChatDeps } from "./chat.deps";
import { ClientMessageConflictError } from "./chat.errors";
import { MAX_MESSAGE_LENGTH, type Message, type MessageType } from "./chat.types";
import { messageSent } from "./events/message-sent";

export type SendMessageInput = {
  conversationId: string;
  body: string;
  messageType: MessageType;
  clientMessageId?: string | undefined;
};

/** The stored message; `replayed` when a retry found the message its client_message_id sent first. */
export type SentMessage = { message: Message; replayed: boolean };

/**
 * Sends a message as the caller. One statement (see MessageRepository.send) takes the next seq,
 * stores the message, moves the conversation's activity and the sender's read marker (sending
 * implies having read what came before), appends the `message.sent` event and signals the
 * realtime fan-out, which fires only on commit. Participants only (404 otherwise); a blocked pair
 * is 403. A client_message_id is unique per sender and conversation: a retry, also a concurrent
 * one, answers the message stored first and stores nothing; the same id with another body or type
 * is 409 idempotency_conflict.
 */
export const sendMessage = async (
  { repos, clock, ids }: ChatDeps,
  actor: Actor,
  input: SendMessageInput,
): Promise<SentMessage> => {
  const body = input.body.trim();
  if (body.length === 0 || body.length > MAX_MESSAGE_LENGTH) {
    throw new ValidationError([
      { path: "body", message: `must be 1 to ${MAX_MESSAGE_LENGTH} characters after trimming` },
    ]);
  }
  const conversationId = input.conversationId.toLowerCase();
  const clientMessageId = input.clientMessageId ?? null;
  const id = ids.next();
  const outcome = await repos.messages.send(
    {
      id,
      conversationId,
      senderId: actor.userId,
      body,
      messageType: input.messageType,
      clientMessageId,
      createdAt: clock.now(),
    },
    messageSent.event(conversationId, {
      conversation_id: conversationId,
      message_id: id,
      sender_id: actor.userId,
    }),
  );
  switch (outcome.status) {
    case "sent":
      return { message: outcome.message, replayed: false };
    case "not_found":
      throw new NotFoundError("Conversation");
    case "blocked":
      throw new BlockedError();
    case "duplicate": {
      const first =
        clientMessageId === null
          ? null
          : await repos.messages.findByClientMessageId(conversationId, actor.userId, clientMessageId);
      if (!first) {
        throw new Error("a client_message_id was refused as a duplicate but its message is missing");
      }
      if (first.body !== body || first.messageType !== input.messageType) {
        throw new ClientMessageConflictError();
      }

      return { message: first, replayed: true };
    }
    default: {
      const unknown: never = outcome;
      throw new Error(`unknown send outcome ${JSON.stringify(unknown)}`);
    }
  }
};
