import type { DeliveryRepositories } from "@agora/domain/delivery/delivery.ports";
import type { IdentityRepositories } from "@agora/domain/identity/identity.ports";
import type { MarketplaceRepositories } from "@agora/domain/marketplace/marketplace.ports";
import type { OrderRepositories } from "@agora/domain/orders/orders.ports";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { UnitOfWork } from "@agora/domain/shared/unit-of-work";
import type { Sql, SqlExecutor } from "../sql";
import { createAuditLog } from "./audit.repository";
import { createCodeRepository } from "./codes.repository";
import { createDeliveryRepositories } from "./delivery.repository";
import {
  createCatalogRepository,
  createDashboardReadModel,
  createListingRepository,
  createMenuItemRepository,
  createProviderRepository,
  createSaleRepository,
} from "./marketplace.repository";
import {
  createIdempotencyStore,
  createOrderRepository,
  createPaymentRepository,
  createSubscriptionRepository,
} from "./orders.repository";
import { createRateLimiter } from "./rate-limits.repository";
import { createSessionRepository } from "./sessions.repository";
import { createUserRepository } from "./users.repository";

/** Every repository, bound to one executor (the pool, or a transaction's connection). */
export type Repositories = IdentityRepositories &
  MarketplaceRepositories &
  DeliveryRepositories &
  OrderRepositories;

export const createRepositories = (db: SqlExecutor, ids: IdGenerator): Repositories => ({
  users: createUserRepository(db),
  codes: createCodeRepository(db),
  sessions: createSessionRepository(db),
  audit: createAuditLog(db, ids),
  rateLimits: createRateLimiter(db),
  catalog: createCatalogRepository(db),
  providers: createProviderRepository(db),
  listings: createListingRepository(db),
  menuItems: createMenuItemRepository(db),
  sales: createSaleRepository(db),
  dashboard: createDashboardReadModel(db),
  ...createDeliveryRepositories(db, ids),
  orders: createOrderRepository(db),
  payments: createPaymentRepository(db),
  subscriptions: createSubscriptionRepository(db),
  idempotency: createIdempotencyStore(db),
});

export const createUnitOfWork = (sql: Sql, ids: IdGenerator): UnitOfWork<Repositories> => ({
  run: (work) => sql.transaction((tx) => work(createRepositories(tx, ids))),
});
