import type { ObjectStore } from "../media/media.ports";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { ConversationSummary, Message } from "./chat.types";

/**
 * A message as a participant reads it: its media with their state and, once ready, their read URLs
 * (private: signed for this read, 5 minutes).
 */
export type MessageView = { message: Message; media: RecordMedia[] };

/** A conversation as a participant lists it: its newest message with its media's read URLs. */
export type ConversationView = { conversation: ConversationSummary; lastMessage: MessageView | null };

/**
 * Whether the two participants read the message alike: they do unless one of its assets was rejected
 * after it was sent (its sender sees it with the reason, the other participant does not see it).
 */
export const readAlike = (message: Message): boolean =>
  message.media.every((asset) => asset.processing !== "rejected");

/**
 * A message as `viewerId` reads it (recordMedia: an asset still processing comes without URLs, a
 * rejected one to its sender only). Only participants get here (every chat read checks
 * participation first); a text-only message signs nothing.
 */
export const viewMessage = async (
  objects: ObjectStore,
  message: Message,
  now: Date,
  viewerId: string,
): Promise<MessageView> => ({
  message,
  media: message.media.length === 0 ? [] : await recordMedia(objects, message.media, now, viewerId),
});

export const viewMessages = (
  objects: ObjectStore,
  messages: readonly Message[],
  now: Date,
  viewerId: string,
): Promise<MessageView[]> =>
  Promise.all(messages.map((message) => viewMessage(objects, message, now, viewerId)));

export const viewConversation = async (
  objects: ObjectStore,
  conversation: ConversationSummary,
  now: Date,
  viewerId: string,
): Promise<ConversationView> => ({
  conversation,
  lastMessage: conversation.lastMessage
    ? await viewMessage(objects, conversation.lastMessage, now, viewerId)
    : null,
});
