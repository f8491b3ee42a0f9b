import { z } from "zod";
import { type NotifyDeps, notify } from "../../notifications/notify";
import { defineEventKind } from "../../outbox/event-kind";
import type { MessageNoticeReader } from "../chat.ports";

export type MessageSentDeps = NotifyDeps & { chat: MessageNoticeReader };

/**
 * A realtime socket counts as open while its process refreshed it within this long (every quarter
 * of PRESENCE_TIMEOUT_SECONDS, at most 15 s);
 * a process that died leaves rows that stop counting after it.
 */
export const CONNECTION_LIVE_MS = 60_000;

/**
 * A new chat message: the recipient's chat notice of the conversation (one inbox row per recipient
 * and conversation, updated in place: the latest sender, how many are unread, the newest message's
 * ids), and a push unless a realtime socket of theirs is open on the conversation or they have read
 * it already (they see it). Pushes collapse per conversation: the device shows the newest one, with
 * the recipient's unread count as the badge. The payload is ids only; who, the sender's name and the
 * count are read at delivery, and the message text never goes into a notification (push travels
 * through FCM/APNs).
 */
export const messageSent = defineEventKind({
  kind: "message.sent",
  aggregateType: "conversation",
  payload: z.object({
    conversation_id: z.uuid(),
    message_id: z.uuid(),
    sender_id: z.uuid(),
  }),
  deliver: async (deps: MessageSentDeps, event) => {
    const liveSince = new Date(deps.clock.now().getTime() - CONNECTION_LIVE_MS);
    const notice = await deps.chat.findNotice(event.payload.message_id, liveSince);
    if (!notice) {
      return;
    }
    await notify(deps, event, [
      {
        userId: notice.recipientId,
        kind: event.kind,
        title: "New message",
        body:
          notice.recipientUnread > 1
            ? `${notice.senderName} sent you ${notice.recipientUnread} messages.`
            : `${notice.senderName} sent you a message.`,
        data: { conversation_id: notice.conversationId, message_id: notice.messageId, seq: notice.seq },
        push: !notice.recipientConnected && notice.recipientUnread > 0,
        collapseKey: `conversation:${notice.conversationId}`,
        chat: { conversationId: notice.conversationId, seq: notice.seq },
      },
    ]);
  },
});
