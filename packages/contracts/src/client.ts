import type { z } from "zod";
import {
  type AgoraClientOptions,
  bindRoutes,
  createTransport,
  type Methods,
  type Transport,
} from "./client/core";
import { memberRoutes } from "./client/routes";
import type { mediaMimeTypeSchema, mediaPurposeSchema } from "./media";
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

/** The bytes of an upload: a `Blob` (a `File`) carries its type, other bytes need `mimeType`. */
export type UploadFile = Blob | ArrayBuffer | Uint8Array;

export type UploadOptions = {
  /** What the asset is for: the record that will take it (`moment`, `message`, `listing`, …). */
  purpose: z.output<typeof mediaPurposeSchema>;
  /** The bytes' type; by default a `Blob`'s own `type`. */
  mimeType?: z.output<typeof mediaMimeTypeSchema>;
  signal?: AbortSignal;
};

/** The member client: `client.auth.*`, `client.listings.*`, … and `client.chat.connect` for realtime. */
export type AgoraClient = Omit<MemberMethods, "chat" | "media"> & {
  readonly chat: MemberMethods["chat"] & {
    /** Opens the conversation's realtime channel (see `@agora/contracts/realtime`). */
    connect(conversationId: string, handlers?: ChatChannelHandlers): ChatChannel;
  };
  readonly media: MemberMethods["media"] & {
    /**
     * Uploads `file` in one call and resolves to the asset's id, ready to attach: asks for an upload
     * ticket, PUTs the bytes to the object store with exactly the signed headers, and confirms the
     * upload, so that the server processes it while the user is still writing (a record takes the id
     * at once and shows it `processing` until it is ready). Each step is retried by the client's
     * rules; a refusal by the store rejects with `upload_failed`.
     */
    upload(file: UploadFile, options: UploadOptions): Promise<string>;
  };
};

/** A `Blob` (or `File`), by its shape: a Blob of another realm (a test DOM, a polyfill) counts too. */
const isBlob = (file: UploadFile): file is Blob =>
  typeof (file as { size?: unknown }).size === "number" &&
  typeof (file as { arrayBuffer?: unknown }).arrayBuffer === "function";

/** The member surface over a transport; the admin client adds `admin` to it. */
export const memberClient = (transport: Transport): AgoraClient => {
  const methods = bindRoutes(transport, memberRoutes);

  return {
    ...methods,
    media: {
      ...methods.media,
      async upload(file, options) {
        const mimeType = options.mimeType ?? (isBlob(file) ? file.type : "");
        if (!mimeType) {
          throw new TypeError("upload: pass options.mimeType for bytes that are not a Blob with a type.");
        }
        const call = options.signal ? { signal: options.signal } : {};
        const ticket = await methods.media.requestUpload(
          {
            purpose: options.purpose,
            mime_type: mimeType as z.output<typeof mediaMimeTypeSchema>,
            size_bytes: isBlob(file) ? file.size : file.byteLength,
          },
          call,
        );
        await transport.sendPresigned(
          { url: ticket.upload_url, method: ticket.method, headers: ticket.headers, body: file },
          call,
        );
        await methods.media.confirm(ticket.id, call);

        return ticket.id;
      },
    },
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
