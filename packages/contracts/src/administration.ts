import { z } from "zod";
import { dateTimeInputSchema, idParamSchema, pageQuerySchema, timestampSchema } from "./common";
import { pageMetaSchema } from "./envelope";
import { userStatusSchema } from "./identity";
import { adminAccountantSchema, userStatusChange, usersCollection } from "./identity.admin";
import {
  listingStatusChange,
  listingsCollection,
  providersCollection,
  servicesCollection,
} from "./marketplace.admin";
import { type CollectionKind, defineOperations, kindPageSchema, unionOfKinds } from "./operation";
import { ordersCollection } from "./orders.admin";
import { paymentsCollection } from "./payments.admin";

/**
 * `GET /admin/{kind}`: `q` searches the fields each kind documents (at least 3 characters, so a
 * trigram index can serve it), `status` takes the values each kind documents (else 422).
 */
export const adminCollectionQuerySchema = pageQuerySchema(20).extend({
  q: z
    .string()
    .trim()
    .min(3, "must be at least 3 characters")
    .max(120)
    .optional()
    .meta({ description: "Search text, 3-120 characters; what it matches depends on the kind." }),
  status: z.string().max(32).optional().meta({ description: "One of the kind's statuses." }),
});
export type AdminCollectionQuery = z.infer<typeof adminCollectionQuerySchema>;

export const accountantServicesRequestSchema = z
  .object({
    service_ids: z
      .array(z.string().min(1).max(64))
      .max(100)
      .meta({ description: "The whole set (it replaces the previous one); may be empty." }),
  })
  .meta({
    id: "AccountantServicesRequest",
    example: { service_ids: ["01935c2e-9b21-7d33-9e4f-5a6b7c8d9eaf"] },
  });

export const accountantServicesSchema = z
  .object({
    accountant_id: z.string(),
    services: z.array(z.object({ id: z.string(), name: z.string() })),
  })
  .meta({ id: "AccountantServices" });
export type AccountantServicesDto = z.infer<typeof accountantServicesSchema>;

export const auditQuerySchema = pageQuerySchema(50).extend({
  actor_id: z.string().max(64).optional().meta({ description: "Only events by this user." }),
  action: z.string().max(100).optional().meta({ description: "Only this action, e.g. `payment.confirmed`." }),
  target_type: z.string().max(50).optional(),
  target_id: z.string().max(100).optional(),
  since: dateTimeInputSchema.optional().meta({ description: "Only events at or after this time." }),
});

export const auditEventSchema = z
  .object({
    id: z.string(),
    actor_id: z.string().nullable().meta({ description: "null: an operator at the command line." }),
    actor_role: z.string().nullable(),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string(),
    before: z.record(z.string(), z.any()).nullable().meta({ description: "The changed fields before." }),
    after: z.record(z.string(), z.any()).nullable().meta({ description: "The same fields after." }),
    details: z.record(z.string(), z.any()),
    request_id: z.string().nullable(),
    created_at: timestampSchema,
  })
  .meta({ id: "AuditEvent" });
export type AuditEventDto = z.infer<typeof auditEventSchema>;

const byCurrency = z.array(
  z.object({ currency: z.string(), amount: z.number().int(), count: z.number().int() }),
);

export const reportsSummarySchema = z
  .object({
    scope: z.enum(["all", "assigned_services"]),
    service_ids: z.array(z.string()).nullable().meta({ description: "The services counted; null for all." }),
    from: timestampSchema,
    to: timestampSchema,
    orders_by_status: z.record(z.string(), z.number().int()).meta({
      description: "Orders created in the window, by their current status.",
    }),
    completed_gross: byCurrency.meta({
      description: "Orders completed in the window: the sum of their totals, per currency.",
    }),
    manual_sales: byCurrency.meta({
      description: "Manual sales that occurred in the window, per currency.",
    }),
    payments: z.object({
      confirmed: z.number().int().meta({ description: "Payments confirmed in the window." }),
      awaiting_review: z.number().int().meta({ description: "Payments submitted and not yet decided, now." }),
    }),
    new_listings: z.number().int().meta({ description: "Listings created in the window." }),
  })
  .meta({ id: "ReportsSummary" });
export type ReportsSummaryDto = z.infer<typeof reportsSummarySchema>;

export const overviewSchema = z
  .object({
    marketplace: z.object({
      users_by_status: z.record(z.string(), z.number().int()),
      providers: z.object({ pending: z.number().int(), approved: z.number().int() }),
      listings_by_status: z.record(z.string(), z.number().int()),
      orders_awaiting_action: z.number().int().meta({ description: "Orders still pending (not confirmed)." }),
      payments_awaiting_review: z.number().int().meta({ description: "Payments submitted and undecided." }),
    }),
    moderation: z.object({
      open_reports: z.number().int().meta({ description: "Reports open or in review, of every target." }),
      reports_over_24h: z.number().int().meta({
        description:
          "Of those, the ones filed more than 24 hours ago: the promise to act within a day, broken.",
      }),
      hidden_moments: z.number().int(),
    }),
  })
  .meta({ id: "AdminOverview" });
export type OverviewDto = z.infer<typeof overviewSchema>;

/** The columns of the moderation reports' CSV export, in order. */
export const reportExportColumns = [
  "report_id",
  "created_at",
  "status",
  "reason",
  "note",
  "moment_id",
  "moment_author_id",
  "moment_hidden",
  "reporter_id",
  "reviewer_id",
  "resolution_note",
  "reviewed_at",
  "resolved_at",
  "target_type",
  "target_id",
  "target_owner_id",
  "category",
  "source",
  "decision",
] as const;

/** `GET /admin/accountants`: users with the accountant role and their assigned services. */
export const accountantsCollection = {
  status: userStatusSchema,
  item: adminAccountantSchema,
  searches: "a substring of the email, username or display name",
} as const satisfies CollectionKind;

/** The kinds of `GET /admin/{kind}`, each contributed by the area that owns it, in the document's order. */
export const adminCollections = {
  users: usersCollection,
  accountants: accountantsCollection,
  services: servicesCollection,
  providers: providersCollection,
  listings: listingsCollection,
  orders: ordersCollection,
  payments: paymentsCollection,
} as const;

/** The kinds of `PATCH /admin/{kind}/{id}/status`. */
export const adminStatusChanges = { users: userStatusChange, listings: listingStatusChange } as const;

const tags = ["Administration"];

/**
 * What belongs to no single area: totals, the reports export, the audit trail, accountants'
 * assignments, the reporting summary, and the admin collections and status changes, one
 * operation each with a typed entry per `{kind}`.
 */
export const administrationOperations = defineOperations({
  adminOverview: {
    method: "GET",
    path: "/api/v1/admin/overview",
    auth: "bearer",
    tags,
    summary: "Marketplace and moderation totals, now",
    responses: { 200: { description: "The totals.", data: overviewSchema } },
    errors: ["unauthorized", "forbidden"],
  },
  adminReportsExportCsv: {
    method: "GET",
    path: "/api/v1/admin/exports/reports.csv",
    auth: "bearer",
    tags,
    summary: "Every moderation report, as CSV",
    responses: {
      200: {
        description: "The CSV file.",
        mediaType: "text/csv",
        text: z.string().meta({ example: `${reportExportColumns.join(",")}\n` }),
      },
    },
    errors: ["unauthorized", "forbidden"],
  },
  adminAuditList: {
    method: "GET",
    path: "/api/v1/admin/audit",
    auth: "bearer",
    tags,
    summary: "The audit trail",
    query: auditQuerySchema,
    responses: {
      200: { description: "A page of events.", data: z.array(auditEventSchema), meta: pageMetaSchema },
    },
    errors: ["unauthorized", "forbidden", "validation_failed"],
  },
  adminAccountantServicesGet: {
    method: "GET",
    path: "/api/v1/admin/accountants/{id}/services",
    auth: "bearer",
    tags,
    summary: "An accountant's assigned services",
    params: idParamSchema,
    responses: { 200: { description: "The assignments.", data: accountantServicesSchema } },
    errors: ["unauthorized", "forbidden", "not_found"],
  },
  adminAccountantServicesPut: {
    method: "PUT",
    path: "/api/v1/admin/accountants/{id}/services",
    auth: "bearer",
    tags,
    summary: "Replace an accountant's assigned services",
    params: idParamSchema,
    body: accountantServicesRequestSchema,
    responses: { 200: { description: "The new assignments.", data: accountantServicesSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed"],
  },
  reportsSummary: {
    method: "GET",
    path: "/api/v1/reports/summary",
    auth: "bearer",
    tags: ["Reports"],
    summary: "The last 30 days, in figures",
    responses: { 200: { description: "The summary.", data: reportsSummarySchema } },
    errors: ["unauthorized", "forbidden"],
  },
  adminCollectionList: {
    method: "GET",
    path: "/api/v1/admin/{kind}",
    auth: "bearer",
    tags,
    summary: "An admin collection",
    params: z.object({ kind: z.string().meta({ example: "orders" }) }),
    query: adminCollectionQuerySchema,
    kinds: adminCollections,
    responses: {
      200: {
        description: "A page of the kind's items.",
        data: kindPageSchema(adminCollections),
        meta: pageMetaSchema,
      },
    },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed"],
  },
  adminStatusUpdate: {
    method: "PATCH",
    path: "/api/v1/admin/{kind}/{id}/status",
    auth: "bearer",
    tags,
    summary: "Change the status of a user or a listing",
    params: z.object({
      kind: z.string().meta({ description: "`users` or `listings`.", example: "users" }),
      id: z.string(),
    }),
    kinds: adminStatusChanges,
    body: unionOfKinds(adminStatusChanges, (kind) => kind.body),
    responses: {
      200: {
        description: "The updated user or listing.",
        data: unionOfKinds(adminStatusChanges, (kind) => kind.data),
      },
    },
    errors: ["unauthorized", "forbidden", "not_found", "last_admin", "validation_failed"],
  },
});
