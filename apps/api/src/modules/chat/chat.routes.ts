import { chatOperations } from "@agora/contracts/chat";
import type { ChatDeps } from "@agora/domain/chat/chat.deps";
import { CHAT_PAGE_SIZE, type PageCursor } from "@agora/domain/chat/chat.types";
import { createConversation } from "@agora/domain/chat/create-conversation";
import { listConversations } from "@agora/domain/chat/list-conversations";
import { listMessages } from "@agora/domain/chat/list-messages";
import { markRead } from "@agora/domain/chat/mark-read";
import { openChannel } from "@agora/domain/chat/open-channel";
import { sendMessage } from "@agora/domain/chat/send-message";
import { ForbiddenError } from "@agora/domain/common/app-error";
import { HttpRefusal } from "../../http/http-refusal";
import { REPLAYED_HEADERS } from "../../http/idempotency";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok, switchingProtocols } from "../../http/respond";
import { toConversationDto, toMessageDto, toReadMarkerDto } from "./chat.presenter";

/** 403 unless the Origin is absent (a native app) or one of ALLOWED_ORIGINS. */
const assertOriginAllowed = (origin: string | undefined, allowed: readonly string[]) => {
  if (origin !== undefined && !allowed.includes(origin.toLowerCase())) {
    throw new ForbiddenError("This Origin may not open the realtime channel.");
  }
};

export const chatRoutes = ({
  chat,
  config,
}: {
  chat: ChatDeps;
  config: { allowedOrigins: readonly string[] };
}): Handled[] => {
  const origins = config.allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/+$/, ""));

  return [
    handle(chatOperations.conversationsList, async (c) => {
      const page = await listConversations(chat, actorOf(c), c.req.valid("query").before);

      return ok(c, page.items.map(toConversationDto), {
        meta: { limit: CHAT_PAGE_SIZE, next_before: page.nextBefore, unread_count: page.unreadCount },
      });
    }),
    handle(chatOperations.conversationsCreate, async (c) => {
      const conversation = await createConversation(chat, actorOf(c), c.req.valid("json").other_user_id);

      return ok(c, toConversationDto(conversation), { status: 201 });
    }),
    handle(chatOperations.messagesList, async (c) => {
      const query = c.req.valid("query");
      const cursor: PageCursor =
        query.before !== undefined
          ? { before: query.before }
          : query.after !== undefined
            ? { after: query.after }
            : { newest: true };
      const page = await listMessages(chat, actorOf(c), c.req.valid("param").id, cursor);

      return ok(c, page.messages.map(toMessageDto), {
        meta: { limit: CHAT_PAGE_SIZE, has_more: page.hasMore },
      });
    }),
    handle(chatOperations.messagesSend, async (c) => {
      const input = c.req.valid("json");
      const sent = await sendMessage(chat, actorOf(c), {
        conversationId: c.req.valid("param").id,
        body: input.body,
        messageType: input.message_type,
        clientMessageId: input.client_message_id,
        mediaAssetIds: input.media_asset_ids,
      });

      return ok(c, toMessageDto(sent.message), {
        status: 201,
        ...(sent.replayed ? { headers: { ...REPLAYED_HEADERS } } : {}),
      });
    }),
    handle(chatOperations.conversationsMarkRead, async (c) =>
      ok(c, toReadMarkerDto(await markRead(chat, actorOf(c), c.req.valid("param").id))),
    ),
    handle(chatOperations.conversationsRealtime, async (c) => {
      const grant = await openChannel(chat, actorOf(c), c.req.valid("param").id, c.req.valid("query").after);
      assertOriginAllowed(c.req.header("origin"), origins);
      const slot = c.env.upgrade;
      if (!slot) {
        throw new HttpRefusal("upgrade_required", "This route only answers WebSocket upgrade requests.", {
          headers: { Upgrade: "websocket" },
        });
      }
      slot.admit(grant);

      return switchingProtocols(c);
    }),
  ];
};
