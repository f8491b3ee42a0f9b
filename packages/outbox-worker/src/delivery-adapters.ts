// The adapters the event kinds deliver through, built once per process from its configuration:
// apps/worker's composition hands them to createOutboxWorker; the API's (apps/api/src/deps.ts)
// serves its requests with the same mailer, push, object store and video service, and hands them to
// both createOutboxDeps and its embedded worker.
import { type CreatedMailer, createMailer, type MailerConfig } from "@agora/adapters/mail/create-mailer";
import { createMediaProcessor } from "@agora/adapters/media/create-media-processor";
import type { MediaProcessingSettings } from "@agora/adapters/media/sharp-media-processor";
import { createPush, type PushConfig } from "@agora/adapters/push/create-push";
import {
  type CreatedObjectStore,
  createObjectStore,
  type ObjectStoreConfig,
} from "@agora/adapters/storage/create-object-store";
import { createVideo, type VideoConfig } from "@agora/adapters/video/create-video";
import type { ChatSignalSink } from "@agora/db/repositories/chat/chat-signals";
import { deriveKey, KEY_PURPOSES } from "@agora/domain/common/derived-keys";
import type { VideoTokenIssuer } from "@agora/domain/lifestyle/lifestyle.ports";
import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import { guestReceiptSetup } from "@agora/domain/orders/guest-receipts";
import type { Logger } from "pino";
import type { DeliveryAdapters } from "./outbox-worker";

/** The slices of the configuration the delivery adapters read (a process hands its whole Config). */
export type DeliveryAdaptersConfig = MailerConfig &
  PushConfig &
  ObjectStoreConfig &
  VideoConfig &
  Parameters<typeof guestReceiptSetup>[1] & {
    mediaProcessing: MediaProcessingSettings;
    tokenSecret: string;
    verifyEmailUrl: string;
    publicApiUrl: string | undefined;
    emailUndoUrl: string;
  };

export type OpenedDeliveryAdapters = {
  /** What createOutboxWorker and createOutboxDeps take. */
  delivery: DeliveryAdapters;
  /** The mailer as created: its kind (the start-up line) and, the memory mailer's, its mails. */
  mail: CreatedMailer;
  /** The object store as created. */
  objects: CreatedObjectStore;
  /** The video service's participant tokens (the API's joins), when it is configured. */
  videoTokens: VideoTokenIssuer | undefined;
  /** Closes what it opened (and the mailer handed in): the mailer, FCM and the object store. */
  close(): Promise<void>;
};

/**
 * The mailer (Resend, SMTP or memory), push (FCM when configured, else off), the object store,
 * the video service's rooms, the image processor (one per process, so its concurrency bound holds),
 * the code key and the guests' receipts' setup. Each SDK is loaded at its first use. A test hands
 * in its mailer or push; `chatSignals` is the process's NATS sink with REALTIME_FANOUT=nats.
 */
export const openDeliveryAdapters = (
  config: DeliveryAdaptersConfig,
  logger: Logger,
  options: { mail?: CreatedMailer; push?: PushSender; chatSignals?: ChatSignalSink | undefined } = {},
): OpenedDeliveryAdapters => {
  const mail = options.mail ?? createMailer(config, logger);
  const fcm = options.push ? undefined : createPush(config);
  const objects = createObjectStore(config);
  const video = createVideo(config);

  return {
    delivery: {
      mailer: mail.mailer,
      push: options.push ?? fcm?.sender,
      videoRooms: video?.rooms,
      codeKey: deriveKey(config.tokenSecret, KEY_PURPOSES.codes),
      emailUndoKey: deriveKey(config.tokenSecret, KEY_PURPOSES.emailUndo),
      verifyEmailUrl: config.verifyEmailUrl,
      publicApiUrl: config.publicApiUrl,
      emailUndoUrl: config.emailUndoUrl,
      objects: objects.store,
      mediaProcessor: createMediaProcessor(config.mediaProcessing),
      guestReceipts: guestReceiptSetup(config.tokenSecret, config),
      chatSignals: options.chatSignals,
    },
    mail,
    objects,
    videoTokens: video?.tokens,
    async close() {
      await mail.close();
      await fcm?.close();
      objects.close();
    },
  };
};
