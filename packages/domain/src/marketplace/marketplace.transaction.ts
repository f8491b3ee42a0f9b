// The marketplace use cases' repositories (their transaction, and the same outside one), composed
// from the marketplace's repository ports and the identity's users. Kept apart from
// marketplace.ports.ts so the areas' ports never import one another (no import circle: `pnpm lint`,
// .dependency-cruiser.cjs).
import type { AuditLog } from "../common/audit";
import type { UserRepository } from "../identity/identity.ports";
import type { MediaAssetRepository } from "../media/media.ports";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type {
  CatalogRepository,
  DashboardReadModel,
  ListingRepository,
  MenuItemRepository,
  ProviderRepository,
  SaleRepository,
} from "./marketplace.ports";

export type MarketplaceRepositories = {
  catalog: CatalogRepository;
  providers: ProviderRepository;
  listings: ListingRepository;
  menuItems: MenuItemRepository;
  sales: SaleRepository;
  dashboard: DashboardReadModel;
  audit: AuditLog;
  /** Provider approval promotes the owner's role. */
  users: Pick<UserRepository, "findByIdForUpdate" | "setRole">;
  /** A listing's gallery; confirming an upload queues its processing in the outbox. */
  media: MediaAssetRepository;
  outbox: OutboxWriter;
};
