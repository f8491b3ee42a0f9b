import { type AgoraClient, memberClient } from "./client";
import { type AgoraClientOptions, bindRoutes, createTransport, type Methods } from "./client/core";
import { adminRoutes } from "./client/routes.admin";

export type { AgoraClientOptions } from "./client/core";
export { AgoraError } from "./client/core";

/** The admin client: the member surface (sign-in, the caller's account) plus `client.admin.*`. */
export type AgoraAdminClient = AgoraClient & { readonly admin: Methods<typeof adminRoutes> };

/** The typed client of the admin app; same options and behaviour as `createAgoraClient`. */
export const createAgoraAdminClient = (options: AgoraClientOptions): AgoraAdminClient => {
  const transport = createTransport(options);

  return { ...memberClient(transport), admin: bindRoutes(transport, adminRoutes) };
};
