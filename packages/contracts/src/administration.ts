import { z } from "zod";
import { dateTimeInputSchema, pageQuerySchema, timestampSchema } from "./common";

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
      open_reports: z.number().int().meta({ description: "Reports open or in review." }),
      hidden_moments: z.number().int(),
    }),
  })
  .meta({ id: "AdminOverview" });
export type OverviewDto = z.infer<typeof overviewSchema>;
