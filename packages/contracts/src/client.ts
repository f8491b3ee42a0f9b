import {
  type AgoraClientOptions,
  bindRoutes,
  createTransport,
  type Methods,
  type Transport,
} from "./client/core";
import { memberRoutes } from "./client/routes";
import { type ChatChannel, type ChatChannelHandlers, connectChat } from "./realtime";

export type {
  AgoraClientOptions,
  AgoraErrorCode,
  CallOptions,
  Page,
  RouteArgs,
  RouteResult,
} from "./client/core";
export { AgoraError, newIdempotencyKey } from "./client/core";

type MemberMethods = Methods<typeof memberRoutes>;

/** The member client: `client.auth.*`, `client.listings.*`, … and `client.chat.connect` for realtime. */
export type AgoraClient = Omit<MemberMethods, "chat"> & {
  readonly chat: MemberMethods["chat"] & {
    /** Opens the conversation's realtime channel (see `@agora/contracts/realtime`). */
    connect(conversationId: string, handlers?: ChatChannelHandlers): ChatChannel;
  };
};

/** The member surface over a transport; the admin client adds `admin` to it. */
export const memberClient = (transport: Transport): AgoraClient => {
  const methods = bindRoutes(transport, memberRoutes);

  return {
    ...methods,
    chat: {
      ...methods.chat,
      connect: (conversationId, handlers = {}) =>
        connectChat({
          baseUrl: transport.baseUrl,
          conversationId,
          getAccessToken: transport.accessToken,
          refreshAccessToken: transport.refresh,
          ...handlers,
        }),
    },
  };
};

/**
 * The typed client of the member surface (mobile app). It keeps the session it signs in with
 * (unless you pass `getAccessToken`/`getRefreshToken`/`onSession` to keep it yourself), refreshes
 * once on a 401, sets `Idempotency-Key` on the retry-prone creations and unwraps the envelope.
 */
export const createAgoraClient = (options: AgoraClientOptions): AgoraClient =>
  memberClient(createTransport(options));
