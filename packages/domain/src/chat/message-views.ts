import type { ObjectStore } from "../media/media.ports";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { ConversationSummary, Message } from "./chat.types";

/** A message as a participant reads it: with its media's read URLs (private: signed now, 5 minutes). */
export type MessageView = { message: Message; media: RecordMedia[] };

/** A conversation as a participant lists it: its newest message with its media's read URLs. */
export type ConversationView = { conversation: ConversationSummary; lastMessage: MessageView | null };

/**
 * Signs the read URLs of a message's media. Only participants get here (every chat read checks
 * participation first); a text-only message signs nothing.
 */
export const viewMessage = async (
  objects: ObjectStore,
  message: Message,
  now: Date,
): Promise<MessageView> => ({
  message,
  media: message.media.length === 0 ? [] : await recordMedia(objects, message.media, now),
});

export const viewMessages = (
  objects: ObjectStore,
  messages: readonly Message[],
  now: Date,
): Promise<MessageView[]> => Promise.all(messages.map((message) => viewMessage(objects, message, now)));

export const viewConversation = async (
  objects: ObjectStore,
  conversation: ConversationSummary,
  now: Date,
): Promise<ConversationView> => ({
  conversation,
  lastMessage: conversation.lastMessage ? await viewMessage(objects, conversation.lastMessage, now) : null,
});
