/** A filter of an admin collection: `q` as the kind documents it, and one of its statuses. */
export type CollectionFilter<S extends string = string> = { q?: string | undefined; status?: S | undefined };

export type AuditEvent = {
  id: string;
  actorId: string | null;
  actorRole: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown>;
  requestId: string | null;
  createdAt: Date;
};

export type AuditFilter = {
  actorId?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  since?: Date | undefined;
};

export type AmountByCurrency = { currency: string; amount: number; count: number };

/** The reporting summary's figures (see getReportsSummary for their definitions). */
export type ReportsSummary = {
  serviceIds: string[] | null;
  from: Date;
  to: Date;
  ordersByStatus: Record<string, number>;
  completedGross: AmountByCurrency[];
  manualSales: AmountByCurrency[];
  paymentsConfirmed: number;
  paymentsAwaitingReview: number;
  newListings: number;
};

/** The admin overview's totals (see getOverview for their definitions). */
export type Overview = {
  usersByStatus: Record<string, number>;
  providers: { pending: number; approved: number };
  listingsByStatus: Record<string, number>;
  ordersAwaitingAction: number;
  paymentsAwaitingReview: number;
  openReports: number;
  overdueReports: number;
  hiddenMoments: number;
};

/** One row of the moderation reports export (its columns, in order, are its keys). */
export type ReportExportRow = {
  report_id: string;
  created_at: Date;
  status: string;
  reason: string;
  note: string | null;
  moment_id: string | null;
  moment_author_id: string | null;
  moment_hidden: boolean | null;
  reporter_id: string | null;
  reviewer_id: string | null;
  resolution_note: string | null;
  reviewed_at: Date | null;
  resolved_at: Date | null;
  target_type: string;
  target_id: string;
  target_owner_id: string | null;
  category: string;
  source: string;
  decision: string | null;
};
