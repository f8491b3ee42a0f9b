import type { ProviderDto } from "@agora/contracts/marketplace";
import type {
  ManualSale,
  ProviderDashboard,
  ProviderProfile,
} from "@agora/domain/marketplace/marketplace.types";

export const toProviderDto = (provider: ProviderProfile): ProviderDto => ({
  id: provider.id,
  user_id: provider.userId,
  display_name: provider.displayName,
  bio: provider.bio,
  phone: provider.phone,
  approval_status: provider.approvalStatus,
  availability: provider.availability,
  created_at: provider.createdAt.toISOString(),
});

export const toManualSaleDto = (sale: ManualSale) => ({
  id: sale.id,
  provider_id: sale.providerId,
  amount: sale.amount,
  currency: sale.currency,
  description: sale.description,
  customer_label: sale.customerLabel,
  occurred_at: sale.occurredAt.toISOString(),
  created_at: sale.createdAt.toISOString(),
});

export const toDashboardDto = (dashboard: ProviderDashboard) => ({
  provider_id: dashboard.providerId,
  approval_status: dashboard.approvalStatus,
  listings_by_status: dashboard.listingsByStatus,
  orders_by_status: dashboard.ordersByStatus,
  revenue_30d: dashboard.revenue30d.map((entry) => ({
    currency: entry.currency,
    orders: entry.orders,
    manual_sales: entry.manualSales,
    total: entry.total,
  })),
  pending_payments: dashboard.pendingPayments,
});
