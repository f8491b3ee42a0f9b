import type {
  AccountantServicesDto,
  AuditEventDto,
  OverviewDto,
  ReportsSummaryDto,
} from "@agora/contracts/administration";
import type { AuditEvent, Overview, ReportsSummary } from "@agora/domain/administration/administration.types";

export const toAuditEventDto = (event: AuditEvent): AuditEventDto => ({
  id: event.id,
  actor_id: event.actorId,
  actor_role: event.actorRole,
  action: event.action,
  target_type: event.targetType,
  target_id: event.targetId,
  before: event.before,
  after: event.after,
  details: event.details,
  request_id: event.requestId,
  created_at: event.createdAt.toISOString(),
});

export const toAccountantServicesDto = (assigned: {
  accountantId: string;
  services: Array<{ id: string; name: string }>;
}): AccountantServicesDto => ({ accountant_id: assigned.accountantId, services: assigned.services });

export const toReportsSummaryDto = (summary: ReportsSummary): ReportsSummaryDto => ({
  scope: summary.serviceIds === null ? "all" : "assigned_services",
  service_ids: summary.serviceIds,
  from: summary.from.toISOString(),
  to: summary.to.toISOString(),
  orders_by_status: summary.ordersByStatus,
  completed_gross: summary.completedGross,
  manual_sales: summary.manualSales,
  payments: { confirmed: summary.paymentsConfirmed, awaiting_review: summary.paymentsAwaitingReview },
  new_listings: summary.newListings,
});

export const toOverviewDto = (overview: Overview): OverviewDto => ({
  marketplace: {
    users_by_status: overview.usersByStatus,
    providers: overview.providers,
    listings_by_status: overview.listingsByStatus,
    orders_awaiting_action: overview.ordersAwaitingAction,
    payments_awaiting_review: overview.paymentsAwaitingReview,
  },
  moderation: {
    open_reports: overview.openReports,
    reports_over_24h: overview.overdueReports,
    hidden_moments: overview.hiddenMoments,
  },
});
