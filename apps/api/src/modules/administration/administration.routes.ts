import {
  accountantServicesRequestSchema,
  accountantServicesSchema,
  adminCollectionQuerySchema,
  auditEventSchema,
  auditQuerySchema,
  overviewSchema,
  reportsSummarySchema,
} from "@agora/contracts/administration";
import { idParamSchema } from "@agora/contracts/common";
import { pageMetaSchema, successEnvelope } from "@agora/contracts/envelope";
import { userSchema, userStatusSchema } from "@agora/contracts/identity";
import { adminAccountantSchema, changeUserStatusRequestSchema } from "@agora/contracts/identity.admin";
import { listingSchema } from "@agora/contracts/marketplace";
import { changeListingStatusRequestSchema } from "@agora/contracts/marketplace.admin";
import { adminListAccountants } from "@agora/domain/administration/admin-list-accountants";
import type { AdministrationDeps } from "@agora/domain/administration/administration.deps";
import { exportReports } from "@agora/domain/administration/export-reports";
import { getAccountantServices } from "@agora/domain/administration/get-accountant-services";
import { getOverview } from "@agora/domain/administration/get-overview";
import { getReportsSummary } from "@agora/domain/administration/get-reports-summary";
import { listAuditEvents } from "@agora/domain/administration/list-audit-events";
import { replaceAccountantServices } from "@agora/domain/administration/replace-accountant-services";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import type { UserStatus } from "@agora/domain/identity/identity.types";
import { NotFoundError, ValidationError } from "@agora/domain/shared/app-error";
import { createRoute, z } from "@hono/zod-openapi";
import { requestLogger } from "../../http/app-env";
import { issuesOf } from "../../http/errors";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toUserDto } from "../identity/identity.presenter";
import type { CollectionKind, StatusKind } from "./administration.kinds";
import {
  toAccountantServicesDto,
  toAuditEventDto,
  toOverviewDto,
  toReportsSummaryDto,
} from "./administration.presenter";
import { REPORT_EXPORT_COLUMNS, reportsCsv } from "./reports-csv";

const tags = ["Administration"];
const secured = [{ bearerAuth: [] }];

const statusResponseSchema = z.union([userSchema, listingSchema]);

/** `GET /admin/accountants`: users with the accountant role and their assigned services. */
export const accountantsKind = ({
  administration,
}: {
  administration: AdministrationDeps;
}): CollectionKind<UserStatus> => ({
  status: userStatusSchema,
  searches: "a substring of the email, username or display name",
  item: adminAccountantSchema,
  list: async (actor, filter, page) => {
    const found = await adminListAccountants(administration, actor, filter, page);

    return {
      total: found.total,
      items: found.items.map((user) => ({ ...toUserDto(user), service_ids: user.serviceIds })),
    };
  },
});

/** The member of `kinds` named `kind`; 404 for any other name (own properties only). */
const kindOf = <K>(kinds: Readonly<Record<string, K>>, kind: string): K => {
  const found = Object.hasOwn(kinds, kind) ? kinds[kind] : undefined;
  if (!found) {
    throw new NotFoundError(`Resource kind ${kind}`);
  }

  return found;
};

/** Parses `value` with a kind's schema: a refusal is 422 on `path`. */
const parseWith = <T>(schema: z.ZodType<T>, value: unknown, target: string): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError(issuesOf(parsed.error, target));
  }

  return parsed.data;
};

/**
 * The cross-area administration routes (mounted at /api/v1): what belongs to no single area —
 * the audit trail, accountant assignments, the reporting summary — and the `/admin/{kind}` routes,
 * which only find the kind an area contributes (CollectionKind, StatusKind).
 */
export const createAdministrationRoutes = ({
  identity,
  administration,
  collectionKinds,
  statusKinds,
}: {
  identity: IdentityDeps;
  administration: AdministrationDeps;
  collectionKinds: Readonly<Record<string, CollectionKind>>;
  statusKinds: Readonly<Record<string, StatusKind>>;
}) => {
  const auth = requireAuth(identity);
  const admin = [auth, requireRoles("admin")];

  const audit = createRoute({
    method: "get",
    path: "/admin/audit",
    tags,
    summary: "The audit trail",
    description:
      "Newest first. Each event names its actor (null: an operator at the command line), the action, the target " +
      "(type and id), the fields it changed (`before`, `after`), other details and the request id. Filters: " +
      "`actor_id`, `action`, `target_type`, `target_id`, `since` (RFC 3339). The trail is append-only. " +
      "`meta` carries `{ limit, offset, total }` (limit 1-100, default 50).",
    security: secured,
    middleware: admin,
    request: { query: auditQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(auditEventSchema), pageMetaSchema), "A page of events."),
      ...errors("unauthorized", "forbidden", "validation_failed"),
    },
  });

  const getAccountant = createRoute({
    method: "get",
    path: "/admin/accountants/{id}/services",
    tags,
    summary: "An accountant's assigned services",
    description: "404 unless the user is an accountant.",
    security: secured,
    middleware: admin,
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(accountantServicesSchema), "The assignments."),
      ...errors("unauthorized", "forbidden", "not_found"),
    },
  });

  const putAccountant = createRoute({
    method: "put",
    path: "/admin/accountants/{id}/services",
    tags,
    summary: "Replace an accountant's assigned services",
    description:
      "Replaces the whole set atomically (an empty list removes every assignment) and records one audit event with " +
      "the sets before and after. 422 when the user is not an accountant, a service is unknown (each is named in " +
      "`details`), or `service_ids` is missing. Reports and order reads of the accountant follow at once.",
    security: secured,
    middleware: admin,
    request: { params: idParamSchema, ...body(accountantServicesRequestSchema) },
    responses: {
      200: json(successEnvelope(accountantServicesSchema), "The new assignments."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed"),
    },
  });

  const summary = createRoute({
    method: "get",
    path: "/reports/summary",
    tags: ["Reports"],
    summary: "The last 30 days, in figures",
    description:
      "Administrators see every service; an accountant only the services assigned to them (with none assigned, " +
      "every figure is zero); anyone else 403. The figures: `orders_by_status` counts orders created in the window " +
      "by their current status; `completed_gross` sums the totals of orders completed in the window, per currency; " +
      "`manual_sales` sums manual sales that occurred in the window, per currency (for an accountant, those of " +
      "providers with a listing in an assigned service); `payments.confirmed` counts payments confirmed in the " +
      "window, `payments.awaiting_review` those submitted and not yet decided now; `new_listings` counts listings " +
      "created in the window. A service's orders and payments are those of its listings.",
    security: secured,
    middleware: [auth],
    responses: {
      200: json(successEnvelope(reportsSummarySchema), "The summary."),
      ...errors("unauthorized", "forbidden"),
    },
  });

  const overview = createRoute({
    method: "get",
    path: "/admin/overview",
    tags,
    summary: "Marketplace and moderation totals, now",
    description:
      "`marketplace.users_by_status` and `listings_by_status` count users and listings per status (a status with " +
      "none is absent); `providers` counts provider profiles pending and approved; `orders_awaiting_action` counts " +
      "orders still `pending` (the provider has not confirmed); `payments_awaiting_review` counts payments " +
      "submitted and undecided. `moderation.open_reports` counts reports `open` or `reviewing`; " +
      "`hidden_moments` counts moments hidden by moderation.",
    security: secured,
    middleware: admin,
    responses: {
      200: json(successEnvelope(overviewSchema), "The totals."),
      ...errors("unauthorized", "forbidden"),
    },
  });

  const exportCsv = createRoute({
    method: "get",
    path: "/admin/exports/reports.csv",
    tags,
    summary: "Every moderation report, as CSV",
    description:
      "A CSV file (RFC 4180, UTF-8, a header row) of every report, oldest first, streamed as it is read: the " +
      "server reads reports in keyset batches of 1,000, so memory stays flat whatever their number and no " +
      "transaction is held while a slow client downloads. The columns, in order: " +
      REPORT_EXPORT_COLUMNS.map((column) => `\`${column}\``).join(", ") +
      ". Times are RFC 3339 in UTC, booleans `true` / `false`, an absent value an empty cell. A cell that begins " +
      "with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a spreadsheet does not run it " +
      "as a formula. `Content-Disposition` names the file `agora-reports-YYYY-MM-DD.csv` (today, UTC). Should " +
      "the database fail after the first bytes, the response ends without its last row's line break, truncated.",
    security: secured,
    middleware: admin,
    responses: {
      200: {
        description: "The CSV file.",
        content: {
          "text/csv": { schema: z.string().meta({ example: `${REPORT_EXPORT_COLUMNS.join(",")}\n` }) },
        },
      },
      ...errors("unauthorized", "forbidden"),
    },
  });

  const kindNames = Object.keys(collectionKinds);
  const collection = createRoute({
    method: "get",
    path: "/admin/{kind}",
    tags,
    summary: "An admin collection",
    description:
      `\`kind\` is one of ${kindNames.map((name) => `\`${name}\``).join(", ")}; any other is 404. ` +
      "`q` (3-120 characters, case-insensitive) searches: " +
      Object.entries(collectionKinds)
        .map(([name, kind]) => `${name}: ${kind.searches}`)
        .join("; ") +
      ". `status` must be one of the kind's statuses (else 422): " +
      Object.entries(collectionKinds)
        .map(
          ([name, kind]) =>
            `${name}: ${"options" in kind.status ? (kind.status.options as string[]).join(" | ") : "—"}`,
        )
        .join("; ") +
      ". Newest first (services by name). Administrators only, except " +
      Object.entries(collectionKinds)
        .filter(([, kind]) => kind.readers)
        .map(([name, kind]) => `\`${name}\`: ${kind.readers}`)
        .join("; ") +
      ". `meta` carries `{ limit, offset, total }` (limit 1-100, default 20; offset 0 or more; else 422).",
    security: secured,
    middleware: [auth, requireRoles("admin", "accountant")],
    request: {
      params: z.object({ kind: z.string().meta({ example: "orders" }) }),
      query: adminCollectionQuerySchema,
    },
    responses: {
      200: json(
        successEnvelope(
          z.union(
            Object.values(collectionKinds).map((kind) => z.array(kind.item)) as unknown as [
              z.ZodType,
              z.ZodType,
              ...z.ZodType[],
            ],
          ),
          pageMetaSchema,
        ),
        "A page of the kind's items.",
      ),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed"),
    },
  });

  const changeStatus = createRoute({
    method: "patch",
    path: "/admin/{kind}/{id}/status",
    tags,
    summary: "Change the status of a user or a listing",
    description:
      "`kind` is `users` (status `active` | `suspended`) or `listings` (`active` | `inactive` | `suspended`). " +
      "Audited. Suspending a user revokes every session, so its access tokens fail on the next request; " +
      "activating a pending user also counts as verifying it. A suspended user's listings are neither " +
      "public nor orderable until the user is active again. The last active administrator cannot be " +
      "suspended: 409 `last_admin` (two administrators suspending each other at once cannot leave none). " +
      "Any other kind is 404; a status not allowed for the kind is 422.",
    security: secured,
    middleware: admin,
    request: {
      params: z.object({
        kind: z.string().meta({ description: "`users` or `listings`.", example: "users" }),
        id: z.string(),
      }),
      ...body(z.union([changeUserStatusRequestSchema, changeListingStatusRequestSchema])),
    },
    responses: {
      200: json(successEnvelope(statusResponseSchema), "The updated user or listing."),
      ...errors("unauthorized", "forbidden", "not_found", "last_admin", "validation_failed"),
    },
  });

  // Registered before `/admin/{kind}`, which would match `/admin/audit` and `/admin/overview` too.
  return createRouter()
    .openapi(overview, async (c) => ok(c, toOverviewDto(await getOverview(administration, actorOf(c)))))
    .openapi(exportCsv, (c) => {
      const rows = exportReports(administration, actorOf(c));
      const day = administration.clock.now().toISOString().slice(0, 10);

      return c.body(reportsCsv(rows, requestLogger(c)), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="agora-reports-${day}.csv"`,
        "Cache-Control": "no-store",
      });
    })
    .openapi(audit, async (c) => {
      const query = c.req.valid("query");
      const page = await listAuditEvents(
        administration,
        actorOf(c),
        {
          actorId: query.actor_id,
          action: query.action,
          targetType: query.target_type,
          targetId: query.target_id,
          since: query.since === undefined ? undefined : new Date(query.since),
        },
        { limit: query.limit, offset: query.offset },
      );

      return ok(c, page.items.map(toAuditEventDto), {
        meta: { limit: query.limit, offset: query.offset, total: page.total },
      });
    })
    .openapi(getAccountant, async (c) =>
      ok(
        c,
        toAccountantServicesDto(
          await getAccountantServices(administration, actorOf(c), c.req.valid("param").id),
        ),
      ),
    )
    .openapi(putAccountant, async (c) => {
      const assigned = await replaceAccountantServices(administration, actorOf(c), {
        accountantId: c.req.valid("param").id,
        serviceIds: c.req.valid("json").service_ids,
      });

      return ok(c, toAccountantServicesDto(assigned));
    })
    .openapi(summary, async (c) =>
      ok(c, toReportsSummaryDto(await getReportsSummary(administration, actorOf(c)))),
    )
    .openapi(collection, async (c) => {
      const target = kindOf(collectionKinds, c.req.valid("param").kind);
      const { q, status, limit, offset } = c.req.valid("query");
      const filter = {
        q,
        status: status === undefined ? undefined : parseWith(target.status, status, "status"),
      };
      const found = await target.list(actorOf(c), filter, { limit, offset });

      return ok(c, found.items as z.infer<typeof userSchema>[], {
        meta: { limit, offset, total: found.total },
      });
    })
    .openapi(changeStatus, async (c) => {
      const { kind, id } = c.req.valid("param");
      const target = kindOf(statusKinds, kind);
      const parsed = parseWith(target.request, c.req.valid("json"), "json");
      // Each kind presents with the response schema it declares (StatusKind.response).
      const changed = (await target.change(actorOf(c), id, parsed)) as z.infer<typeof statusResponseSchema>;

      return ok(c, changed);
    });
};
