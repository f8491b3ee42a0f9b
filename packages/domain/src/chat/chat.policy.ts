import type { Conversation } from "./chat.types";

/** The pair as stored: the smaller id first, so both sides of a pair name the same row. */
export const orderedPair = (userId: string, otherId: string): [string, string] =>
  userId < otherId ? [userId, otherId] : [otherId, userId];

/** Whether the user is one of the two participants (only they may read, send or listen). */
export const isParticipant = (conversation: Pick<Conversation, "participantIds">, userId: string): boolean =>
  conversation.participantIds.includes(userId);

/** The participant who is not `userId`. */
export const otherParticipant = (conversation: Pick<Conversation, "participantIds">, userId: string) =>
  conversation.participantIds[0] === userId ? conversation.participantIds[1] : conversation.participantIds[0];
