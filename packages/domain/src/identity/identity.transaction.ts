// The identity use cases' transaction, composed from the repository ports of identity and of the
// areas its writes reach. Kept apart from identity.ports.ts so the areas' ports never import one
// another (no import circle: `pnpm lint`, .dependency-cruiser.cjs).
import type { CommentRepository, MomentRepository } from "../community/community.ports";
import type { DatingProfileRepository } from "../lifestyle/lifestyle.ports";
import type { ListingRepository, ProviderRepository } from "../marketplace/marketplace.ports";
import type { FilterReportWriter } from "../moderation/content-filter.ports";
import type { DeviceRepository, NotificationRepository } from "../notifications/notifications.ports";
import type { OrderRepository } from "../orders/orders.ports";
import type { IdentityRepositories } from "./identity.ports";

/**
 * What an identity use case's transaction holds: its own repositories, the listings whose public
 * visibility follows the owner's account status, the provider profile and listings whose standing
 * follows the owner's role (a demotion to member withdraws the approval; provider-standing.ts), and
 * what account deletion erases in other areas (each called by the use case, explicitly:
 * delete-me.ts).
 */
export type IdentityTransaction = IdentityRepositories & {
  listings: Pick<ListingRepository, "setOwnerActive" | "setProviderName" | "markProviderWithdrawn">;
  providers: Pick<ProviderRepository, "findByUserId" | "update" | "withdrawByUserId">;
  datingProfiles: Pick<DatingProfileRepository, "deleteForUser">;
  moments: Pick<MomentRepository, "deleteByAuthor">;
  comments: Pick<CommentRepository, "deleteByAuthor">;
  orders: Pick<OrderRepository, "clearCustomerNotes">;
  notifications: Pick<NotificationRepository, "deleteForUser">;
  devices: Pick<DeviceRepository, "deleteForUser">;
  /** A flagged name's filter report (docs/safety.md, "Filters"). */
  filterReports: FilterReportWriter;
};
