import type { CommunityRepositories } from "@agora/domain/community/community.ports";
import type {
  CodeRepository,
  IdentityRepositories,
  UserRepository,
} from "@agora/domain/identity/identity.ports";
import type { LifestyleRepositories } from "@agora/domain/lifestyle/lifestyle.ports";
import type { MarketplaceRepositories } from "@agora/domain/marketplace/marketplace.ports";
import type {
  DeviceRepository,
  NotificationRepository,
} from "@agora/domain/notifications/notifications.ports";
import type { OrderRepositories } from "@agora/domain/orders/orders.ports";
import type { OutboxStore } from "@agora/domain/outbox/outbox.ports";
import type { PaymentRepositories } from "@agora/domain/payments/payments.ports";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { RateLimiter } from "@agora/domain/shared/rate-limit";
import type { UnitOfWork } from "@agora/domain/shared/unit-of-work";
import type { Database } from "../client";
import type { PrismaClient } from "../generated/prisma/client";
import type { SqlExecutor } from "../sql";
import { createAuditLog } from "./audit.repository";
import { createBlockRepository } from "./community/user-blocks.repository";
import { createIdempotencyStore } from "./idempotency.repository";
import { createCodeRepository } from "./identity/codes.repository";
import { createSessionRepository } from "./identity/sessions.repository";
import { createUserRepository } from "./identity/users.repository";
import { createAnnouncementRepository } from "./lifestyle/announcements.repository";
import { createCuratedContentRepository } from "./lifestyle/curated-content.repository";
import { createDatingProfileRepository } from "./lifestyle/dating-profiles.repository";
import { createMeetingRepository } from "./lifestyle/meetings.repository";
import { createCatalogRepository } from "./marketplace/catalog.repository";
import { createListingRepository } from "./marketplace/listings.repository";
import { createMenuItemRepository } from "./marketplace/menu-items.repository";
import { createDashboardReadModel } from "./marketplace/provider-dashboard.repository";
import { createProviderRepository } from "./marketplace/provider-profiles.repository";
import { createSaleRepository } from "./marketplace/sales.repository";
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
  LifestyleRepositories & { notifications: NotificationRepository; devices: DeviceRepository };

/**
 * The repositories over `db`. Prisma-backed ones use the one client; inside a unit of work its
 * queries run on the transaction's connection (see client.ts), so both kinds commit together.
 * Building them is closures only, no I/O.
 */
export const createRepositories = (
  db: SqlExecutor,
  prisma: PrismaClient,
  ids: IdGenerator,
): Repositories => ({
  users: createUserRepository(db),
  codes: createCodeRepository(db),
  sessions: createSessionRepository(db),
  audit: createAuditLog(prisma, ids),
  rateLimits: createRateLimiter(db),
  idempotency: createIdempotencyStore(db),
  outbox: createOutboxWriter(db, ids),
  catalog: createCatalogRepository(prisma),
  providers: createProviderRepository(prisma, db),
  listings: createListingRepository(db),
  menuItems: createMenuItemRepository(db),
  sales: createSaleRepository(db),
  dashboard: createDashboardReadModel(db),
  orders: createOrderRepository(db),
  completedOrders: createCompletedOrderRepository(db),
  payments: createPaymentRepository(db),
  notifications: createNotificationRepository(db),
  devices: createDeviceRepository(db),
  blocks: createBlockRepository(prisma, db),
  datingProfiles: createDatingProfileRepository(prisma, db),
  curatedContent: createCuratedContentRepository(prisma),
  announcements: createAnnouncementRepository(prisma),
  meetings: createMeetingRepository(db),
});

export const createUnitOfWork = (database: Database, ids: IdGenerator): UnitOfWork<Repositories> => ({
  run: (work) => database.sql.transaction((tx) => work(createRepositories(tx, database.prisma, ids))),
});

/**
 * What the outbox worker needs of the database: claims on the pool, inbox and devices, and the
 * accounts, codes and counters behind code mails.
 */
export const createOutboxRepositories = (
  database: Database,
): {
  outbox: OutboxStore;
  notifications: NotificationRepository;
  devices: DeviceRepository;
  users: UserRepository;
  codes: CodeRepository;
  rateLimits: RateLimiter;
} => ({
  outbox: createOutboxStore(database.sql),
  notifications: createNotificationRepository(database.sql),
  devices: createDeviceRepository(database.sql),
  users: createUserRepository(database.sql),
  codes: createCodeRepository(database.sql),
  rateLimits: createRateLimiter(database.sql),
});
