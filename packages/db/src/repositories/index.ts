import type { AdministrationRepositories } from "@agora/domain/administration/administration.ports";
import type {
  ChatConnectionRepository,
  ChatRepositories,
  MessageNoticeReader,
} from "@agora/domain/chat/chat.ports";
import type { IdGenerator } from "@agora/domain/common/ids";
import type { RateLimiter } from "@agora/domain/common/rate-limit";
import type { UnitOfWork } from "@agora/domain/common/unit-of-work";
import type { CommunityRepositories } from "@agora/domain/community/community.ports";
import type {
  CodeRepository,
  DataExportDeliveryStore,
  IdentityRepositories,
  UserRepository,
} from "@agora/domain/identity/identity.ports";
import type { LifestyleRepositories, MeetingRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { MarketplaceRepositories } from "@agora/domain/marketplace/marketplace.transaction";
import type { MediaAssetRepository, MediaSignals } from "@agora/domain/media/media.ports";
import type {
  ContentFilterRepository,
  FilterReportWriter,
} from "@agora/domain/moderation/content-filter.ports";
import type {
  DeviceRepository,
  NotificationRepository,
} from "@agora/domain/notifications/notifications.ports";
import type { GuestReceiptRepository } from "@agora/domain/orders/orders.ports";
import type { OrderRepositories } from "@agora/domain/orders/orders.transaction";
import type { OutboxStore } from "@agora/domain/outbox/outbox.ports";
import type { PaymentRepositories } from "@agora/domain/payments/payments.ports";
import type { Database } from "../client";
import type { SqlExecutor } from "../sql";
import { createAccountantServiceRepository } from "./administration/accountant-services.repository";
import { createAuditReader } from "./administration/audit-events.repository";
import { createOverviewReadModel } from "./administration/overview.repository";
import { createReportExportSource } from "./administration/report-export.repository";
import { createReportsReadModel } from "./administration/reports.repository";
import { createAuditLog } from "./audit.repository";
import { createChatConnectionRepository } from "./chat/chat-connections.repository";
import type { ChatSignalSink } from "./chat/chat-signals";
import { createConversationRepository } from "./chat/conversations.repository";
import {
  createMessageMediaSignals,
  createMessageNoticeReader,
  createMessageRepository,
} from "./chat/messages.repository";
import { createCommentRepository } from "./community/moment-comments.repository";
import { createMomentRepository } from "./community/moments.repository";
import { createOwnContentRepository } from "./community/own-content.repository";
import { createTargetReportRepository } from "./community/report-targets.repository";
import { createReportRepository } from "./community/reports.repository";
import { createBlockRepository } from "./community/user-blocks.repository";
import { createMuteRepository } from "./community/user-mutes.repository";
import { createIdempotencyStore } from "./idempotency.repository";
import { createCodeRepository } from "./identity/codes.repository";
import { createDataExportDeliveryStore, createDataExportRepository } from "./identity/data-export.repository";
import { createEmailChangeRepository } from "./identity/email-changes.repository";
import { createSessionRepository } from "./identity/sessions.repository";
import { createUserRepository } from "./identity/users.repository";
import { createAnnouncementRepository } from "./lifestyle/announcements.repository";
import { createCuratedContentRepository } from "./lifestyle/curated-content.repository";
import { createDatingProfileRepository } from "./lifestyle/dating-profiles.repository";
import { createMeetingRepository } from "./lifestyle/meetings.repository";
import { type ListingRepositoryOptions, withListingSearchSharing } from "./marketplace/cached-listings";
import { createCatalogRepository } from "./marketplace/catalog.repository";
import { createListingRepository } from "./marketplace/listings.repository";
import { createMenuItemRepository } from "./marketplace/menu-items.repository";
import { createDashboardReadModel } from "./marketplace/provider-dashboard.repository";
import { createProviderRepository } from "./marketplace/provider-profiles.repository";
import { createSaleRepository } from "./marketplace/sales.repository";
import { createMediaAssetRepository } from "./media/media-assets.repository";
import { createContentFilterRepository } from "./moderation/content-filters.repository";
import { createFilterReportWriter } from "./moderation/filter-reports.repository";
import { createDeviceRepository } from "./notifications/devices.repository";
import { createNotificationRepository } from "./notifications/notifications.repository";
import { createCompletedOrderRepository } from "./orders/completed-orders.repository";
import { createOrderRepository } from "./orders/orders.repository";
import { createOutboxStore, createOutboxWriter } from "./outbox/outbox-events.repository";
import { createPaymentRepository } from "./payments/payments.repository";
import { createRateLimiter } from "./rate-limits.repository";

/** Every repository a use case may hold, bound to one executor (the pool, or a transaction's connection). */
export type Repositories = IdentityRepositories &
  MarketplaceRepositories &
  OrderRepositories &
  PaymentRepositories &
  CommunityRepositories &
  LifestyleRepositories &
  AdministrationRepositories &
  ChatRepositories & {
    notifications: NotificationRepository;
    devices: DeviceRepository;
    chatConnections: ChatConnectionRepository;
    contentFilters: ContentFilterRepository;
    filterReports: FilterReportWriter;
  };

export type RepositoryOptions = {
  listings?: ListingRepositoryOptions;
  /**
   * Where chat's signals go when they are not pg_notify'd (REALTIME_FANOUT=nats): each statement
   * returns them and they are handed here once committed (chat-signals.ts, SignalDelivery).
   */
  chatSignals?: ChatSignalSink;
};

/**
 * The repositories over `db`. Prisma-backed ones use the one client, through `prisma`, its loader
 * (`Database.prisma`), which they call only when a method queries; inside a unit of work its
 * queries run on the transaction's connection (see client/transaction-routing.ts), so both kinds
 * commit together. Building them is closures only, no I/O, and loads nothing.
 */
export const createRepositories = (
  db: SqlExecutor,
  prisma: Database["prisma"],
  ids: IdGenerator,
  options: RepositoryOptions = {},
): Repositories => ({
  users: createUserRepository(db),
  codes: createCodeRepository(db),
  sessions: createSessionRepository(db),
  dataExports: createDataExportRepository(db),
  emailChanges: createEmailChangeRepository(db),
  audit: createAuditLog(prisma, ids),
  rateLimits: createRateLimiter(db),
  idempotency: createIdempotencyStore(db),
  outbox: createOutboxWriter(db, ids),
  catalog: createCatalogRepository(prisma),
  providers: createProviderRepository(prisma),
  // Public searches shared and their pages kept as the configuration says (cached-listings.ts).
  listings: withListingSearchSharing(createListingRepository(db), options.listings),
  menuItems: createMenuItemRepository(db),
  sales: createSaleRepository(db),
  dashboard: createDashboardReadModel(db),
  orders: createOrderRepository(db),
  completedOrders: createCompletedOrderRepository(db),
  payments: createPaymentRepository(db),
  notifications: createNotificationRepository(db),
  devices: createDeviceRepository(db),
  blocks: createBlockRepository(db),
  datingProfiles: createDatingProfileRepository(db),
  curatedContent: createCuratedContentRepository(prisma),
  announcements: createAnnouncementRepository(prisma),
  meetings: createMeetingRepository(db),
  accountantServices: createAccountantServiceRepository(db),
  auditEvents: createAuditReader(prisma),
  reportsSummary: createReportsReadModel(db),
  overview: createOverviewReadModel(db),
  reportExport: createReportExportSource(db),
  media: createMediaAssetRepository(db),
  moments: createMomentRepository(db),
  comments: createCommentRepository(db),
  reports: createReportRepository(db),
  targetReports: createTargetReportRepository(db, createMessageRepository(db, ids, options.chatSignals)),
  ownContent: createOwnContentRepository(db),
  mutes: createMuteRepository(db),
  conversations: createConversationRepository(db, options.chatSignals),
  messages: createMessageRepository(db, ids, options.chatSignals),
  chatConnections: createChatConnectionRepository(db, options.chatSignals),
  contentFilters: createContentFilterRepository(db),
  filterReports: createFilterReportWriter(db),
});

/**
 * Units of work over `database`. Chat signals a unit of work's statements return (`chatSignals`)
 * are held until it commits, then handed on; a unit that rolls back hands on none.
 */
export const createUnitOfWork = (
  database: Database,
  ids: IdGenerator,
  options: Pick<RepositoryOptions, "chatSignals"> = {},
): UnitOfWork<Repositories> => ({
  async run(work) {
    const sink = options.chatSignals;
    if (!sink) {
      return database.sql.transaction((tx) => work(createRepositories(tx, database.prisma, ids)));
    }
    const held: string[] = [];
    const holding: ChatSignalSink = { publish: (payloads) => held.push(...payloads) };
    const result = await database.sql.transaction((tx) =>
      work(createRepositories(tx, database.prisma, ids, { chatSignals: holding })),
    );
    if (held.length > 0) {
      sink.publish(held);
    }

    return result;
  },
});

/**
 * What the outbox worker needs of the database: claims on the pool, inbox (its writes coalesced
 * across the deliveries of a batch) and devices, chat notices, the accounts, codes and counters
 * behind code mails, meeting participations, the media assets it processes and their realtime
 * signals (handed to `chatSignals` with a broker fan-out, else pg_notify'd), guest orders'
 * receipts, and the data exports it builds and ends.
 */
export const createOutboxRepositories = (
  database: Database,
  options: Pick<RepositoryOptions, "chatSignals"> = {},
): {
  outbox: OutboxStore;
  notifications: NotificationRepository;
  devices: DeviceRepository;
  chat: MessageNoticeReader;
  users: UserRepository;
  codes: CodeRepository;
  rateLimits: RateLimiter;
  meetings: Pick<MeetingRepository, "isParticipating">;
  media: MediaAssetRepository;
  mediaSignals: MediaSignals;
  receipts: Pick<GuestReceiptRepository, "findGuestReceipt">;
  dataExports: DataExportDeliveryStore;
} => ({
  outbox: createOutboxStore(database.sql),
  // A claimed batch's deliveries start together: their inbox rows go in one statement.
  notifications: createNotificationRepository(database.sql, { coalesce: true }),
  devices: createDeviceRepository(database.sql),
  chat: createMessageNoticeReader(database.sql),
  users: createUserRepository(database.sql),
  codes: createCodeRepository(database.sql),
  rateLimits: createRateLimiter(database.sql),
  meetings: createMeetingRepository(database.sql),
  media: createMediaAssetRepository(database.sql),
  mediaSignals: createMessageMediaSignals(database.sql, options.chatSignals),
  receipts: createOrderRepository(database.sql),
  dataExports: createDataExportDeliveryStore(database.sql),
});
