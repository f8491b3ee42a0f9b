// The order use cases' repositories (their transaction, and the same outside one), composed from
// the orders' repository ports and those of the areas an order reads. Kept apart from
// orders.ports.ts so the areas' ports never import one another (no import circle: `pnpm lint`,
// .dependency-cruiser.cjs).
import type { AccountantServiceRepository } from "../administration/administration.ports";
import type { AuditLog } from "../common/audit";
import type { IdempotencyStore } from "../common/idempotency";
import type { RateLimiter } from "../common/rate-limit";
import type { SessionRepository } from "../identity/identity.ports";
import type { MarketplaceRepositories } from "../marketplace/marketplace.transaction";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { CompletedOrderRepository, OrderRepository } from "./orders.ports";

export type OrderRepositories = {
  orders: OrderRepository;
  completedOrders: CompletedOrderRepository;
  idempotency: IdempotencyStore;
  outbox: OutboxWriter;
  audit: AuditLog;
  accountantServices: Pick<AccountantServiceRepository, "coversListing" | "findServiceIdsByAccountants">;
  rateLimits: RateLimiter;
  /** A member's session, confirmed when an order's write found it (or its item) changed. */
  sessions: Pick<SessionRepository, "findActiveActor">;
} & Pick<MarketplaceRepositories, "providers" | "menuItems" | "sales">;
