// What each area's use cases get: the repositories and unit of work, the shared adapters, and
// their slice of the configuration. Part of the composition root (deps.ts).

import { createArgon2Passwords } from "@agora/adapters/security/argon2-passwords";
import { createJwtAccessTokens } from "@agora/adapters/security/jwt-access-tokens";
import type { createRepositories, createUnitOfWork } from "@agora/db/repositories/index";
import type { AdministrationDeps } from "@agora/domain/administration/administration.deps";
import type { ChatDeps } from "@agora/domain/chat/chat.deps";
import type { Clock } from "@agora/domain/common/clock";
import { KEY_PURPOSES, type KeyPurpose, keyRing } from "@agora/domain/common/derived-keys";
import type { IdGenerator } from "@agora/domain/common/ids";
import type { Mailer } from "@agora/domain/common/mail";
import { createSecretBox } from "@agora/domain/common/secret-box";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import type { SessionActivity } from "@agora/domain/identity/identity.ports";
import type { LifestyleDeps } from "@agora/domain/lifestyle/lifestyle.deps";
import type { VideoTokenIssuer } from "@agora/domain/lifestyle/lifestyle.ports";
import type { MarketplaceDeps } from "@agora/domain/marketplace/marketplace.deps";
import type { MediaDeps } from "@agora/domain/media/media.deps";
import type { ObjectStore } from "@agora/domain/media/media.ports";
import type { ContentScreen } from "@agora/domain/moderation/content-filter-cache";
import type { ModerationDeps } from "@agora/domain/moderation/moderation.deps";
import type { NotificationsDeps } from "@agora/domain/notifications/notifications.deps";
import type { PushSender } from "@agora/domain/notifications/notifications.ports";
import type { OrdersDeps } from "@agora/domain/orders/orders.deps";
import { createRecentItems } from "@agora/domain/orders/recent-items";
import type { PaymentsDeps } from "@agora/domain/payments/payments.deps";
import type { Config } from "@agora/process/config";
import type { IdempotencyDeps } from "../http/idempotency";

export type AreaDeps = {
  identity: IdentityDeps;
  notifications: NotificationsDeps;
  marketplace: MarketplaceDeps;
  orders: OrdersDeps;
  payments: PaymentsDeps;
  community: CommunityDeps;
  lifestyle: LifestyleDeps;
  administration: AdministrationDeps;
  media: MediaDeps;
  chat: ChatDeps;
  moderation: ModerationDeps;
  /** The records of `Idempotency-Key`s of the operations whose use case does not keep them. */
  idempotency: IdempotencyDeps;
};

export type SharedParts = {
  repos: ReturnType<typeof createRepositories>;
  uow: ReturnType<typeof createUnitOfWork>;
  clock: Clock;
  ids: IdGenerator;
  mailer: Mailer;
  push: PushSender | undefined;
  objects: ObjectStore;
  videoTokens: VideoTokenIssuer | undefined;
  sessionActivity: SessionActivity;
  /** The content filter rules, compiled and cached per process (docs/safety.md, "Filters"). */
  filters: ContentScreen;
};

export const createAreaDeps = (config: Config, parts: SharedParts): AreaDeps => {
  const { repos, uow, clock, ids, objects, filters } = parts;
  const secrets = createSecretBox(config.tokenSecret, KEY_PURPOSES.guestCapabilities);
  /** A purpose's keys from TOKEN_SECRET (docs/accounts.md, "Keys from TOKEN_SECRET"). */
  const keys = (purpose: KeyPurpose) => keyRing(config.tokenSecret, purpose);

  return {
    identity: {
      uow,
      repos,
      clock,
      ids,
      mailer: parts.mailer,
      passwords: createArgon2Passwords(
        {},
        { concurrency: config.passwordHashConcurrency, queue: config.passwordHashQueue },
      ),
      accessTokens: createJwtAccessTokens(keys(KEY_PURPOSES.accessTokens), config.accessTokenTtlSeconds),
      settings: {
        codeKey: keys(KEY_PURPOSES.codes),
        emailUndoKey: keys(KEY_PURPOSES.emailUndo).current,
        refreshKey: keys(KEY_PURPOSES.refreshSuccessors),
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
        sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
        authRequestsPerIp: config.rateLimitAuthPerIp,
        registrationsPerEmail: config.rateLimitRegisterPerEmail,
        resetRequestsPerEmail: config.rateLimitResetPerEmail,
        resendCooldownSeconds: config.resendCooldownSeconds,
        loginFailuresPerClient: config.loginFailuresPerClient,
        loginFailureNoticePerEmail: config.loginFailureNoticePerEmail,
        verifyEmailUrl: config.verifyEmailUrl,
        emailUndoUrl: config.emailUndoUrl,
      },
      objects,
      sessionActivity: parts.sessionActivity,
      filters,
    },
    notifications: {
      notifications: repos.notifications,
      devices: repos.devices,
      conversations: repos.conversations,
      push: parts.push,
      clock,
      ids,
      deviceProofKey: keys(KEY_PURPOSES.deviceProofs),
    },
    marketplace: { uow, repos, clock, ids, objects, filters },
    idempotency: {
      idempotency: repos.idempotency,
      clock,
      secrets: createSecretBox(config.tokenSecret, KEY_PURPOSES.idempotentAnswers),
    },
    orders: {
      uow,
      repos,
      clock,
      ids,
      secrets,
      recentItems: createRecentItems(),
      settings: {
        guestOrdersPerIp: config.rateLimitGuestOrdersPerIp,
        guestOrdersPerEmail: config.rateLimitGuestOrdersPerEmail,
        guestMailStopKey: keys(KEY_PURPOSES.guestMailStop),
        sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
      },
    },
    payments: {
      uow,
      repos,
      clock,
      ids,
      secrets,
      settings: { listingPlan: config.listingPlan, paymentInstructions: config.paymentInstructions },
      objects,
    },
    community: { uow, repos, clock, ids, objects, filters },
    media: { uow, repos, clock, ids, objects, uploadQuota: config.mediaUploadQuota },
    lifestyle: { uow, repos, clock, ids, objects, video: parts.videoTokens, filters },
    administration: { uow, repos, clock },
    chat: { repos, uow, clock, ids, objects, filters },
    moderation: { uow, repos, clock, ids, filters },
  };
};
