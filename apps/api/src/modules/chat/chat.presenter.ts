import type { ConversationDto, MessageDto, PresenceDto, ReadMarkerDto } from "@agora/contracts/chat";
import type { Presence, ReadMarker } from "@agora/domain/chat/chat.types";
import type { ConversationView, MessageView } from "@agora/domain/chat/message-views";
import { toMediaItemDto } from "../media/media.presenter";

export const toMessageDto = ({ message, media }: MessageView): MessageDto => ({
  id: message.id,
  conversation_id: message.conversationId,
  seq: message.seq,
  sender_id: message.senderId,
  body: message.body,
  message_type: message.messageType,
  client_message_id: message.clientMessageId,
  created_at: message.createdAt.toISOString(),
  held: message.held,
  media: media.map(toMediaItemDto),
});

export const toConversationDto = ({ conversation, lastMessage }: ConversationView): ConversationDto => ({
  id: conversation.id,
  participant_ids: [...conversation.participantIds],
  last_message: lastMessage ? toMessageDto(lastMessage) : null,
  unread_count: conversation.unreadCount,
  updated_at: conversation.updatedAt.toISOString(),
});

export const toReadMarkerDto = (marker: ReadMarker): ReadMarkerDto => ({
  conversation_id: marker.conversationId,
  user_id: marker.userId,
  read_at: marker.readAt?.toISOString() ?? null,
  last_read_seq: marker.lastReadSeq,
});

export const toPresenceDto = (presence: Presence): PresenceDto => ({
  user_id: presence.userId,
  online: presence.online,
  last_active_at: presence.lastActiveAt?.toISOString() ?? null,
});
