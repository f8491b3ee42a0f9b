import type { ChatDeps } from "@agora/domain/chat/chat.deps";
import type { Area } from "../area";
import { chatDescriptions } from "./chat.docs";
import { chatRoutes } from "./chat.routes";

/** Conversations, messages, read markers and the realtime channel. */
export const chatArea: Area<{ chat: ChatDeps; config: { allowedOrigins: readonly string[] } }> = {
  routes: chatRoutes,
  descriptions: chatDescriptions,
};
