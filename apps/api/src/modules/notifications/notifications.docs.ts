import type { notificationsOperations } from "@agora/contracts/notifications";
import type { DescriptionsOf } from "../../http/operations";

/** The notification operations' OpenAPI descriptions, by operationId. */
export const notificationsDescriptions = {
  devicesRegister:
    "Registers the push token of the caller's device for the caller's session: pushes go only to " +
    "registrations of live sessions, so a phone stops receiving a user's notifications once that user " +
    "signs out (register again after every sign-in). One registration per token: a new token or the " +
    "caller's own is 201 with the registration, and so is a token whose registering session has ended " +
    "(the previous user signed out on this phone). A token held by another account's live session is " +
    "not taken on the caller's word (that would silence the other account's pushes): the answer is 202 " +
    "`proof_sent` and the service sends that token a data-only push with `data.kind` = `device.proof` " +
    "and `data.proof` (when push is configured; without push the token cannot move and does not need " +
    "to); the app registers again with `proof` and gets 201 (a wrong or stale proof is 422). A user keeps at most 10 registrations; registering an eleventh evicts the least recently " +
    "registered. Tokens the push provider reports invalid are deleted. Push carries notifications " +
    "only, never sign-in or verification codes.",
  notificationsList:
    "The caller's notifications, 50 per page, newest first (by when each was last raised), read and " +
    "unread. Notifications are written by the outbox worker shortly after the event that causes them (an " +
    "order, a payment); `data` carries the event's ids for the client to open. Chat does not add a row per " +
    "message: each conversation has one chat notice (`kind` `message.sent`, the same id throughout), updated " +
    "in place and raised to the top by each message, with the latest sender and the newest message's ids; it " +
    "is unread while the conversation has unread messages (`unread_count` = their number), read once the " +
    "conversation is read, and unread again with the next message. So chat volume never pushes other " +
    "notices off the first page. `meta.next_before` (null on the last page) pages on with `before`; it is a " +
    "position, so notices arriving meanwhile never make a page repeat or skip one (a malformed `before` is " +
    "422). `meta.unread_count` is the caller's unread count: unread notices other than chat plus every " +
    "conversation's unread messages, the sum of the notices' `unread_count` and the push badge.",
  notificationsMarkRead:
    "Sets `read_at`. Idempotent: reading it again answers 200 with the first `read_at`. Reading a chat " +
    "notice reads its conversation (as `POST /chat/conversations/{id}/read` does). The id `all` marks every " +
    "notification of the caller read in one request, every conversation with unread messages too, and " +
    "answers `{ notifications, conversations, unread_count }` (how many of each it marked, and the count " +
    "after). Another user's notification, an unknown or a malformed id is 404.",
} satisfies DescriptionsOf<typeof notificationsOperations>;
