import { accountantsCollection, administrationOperations } from "@agora/contracts/administration";
import { adminListAccountants } from "@agora/domain/administration/admin-list-accountants";
import type { AdministrationDeps } from "@agora/domain/administration/administration.deps";
import { exportReports } from "@agora/domain/administration/export-reports";
import { getAccountantServices } from "@agora/domain/administration/get-accountant-services";
import { getOverview } from "@agora/domain/administration/get-overview";
import { getReportsSummary } from "@agora/domain/administration/get-reports-summary";
import { listAuditEvents } from "@agora/domain/administration/list-audit-events";
import { replaceAccountantServices } from "@agora/domain/administration/replace-accountant-services";
import { requestLogger } from "../../http/app-env";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toUserDto } from "../identity/identity.presenter";
import {
  type AdminKinds,
  type CollectionKinds,
  collectionKind,
  kindOf,
  type StatusKinds,
} from "./administration.kinds";
import {
  toAccountantServicesDto,
  toAuditEventDto,
  toOverviewDto,
  toReportsSummaryDto,
} from "./administration.presenter";
import { reportsCsv } from "./reports-csv";

const admin = { roles: ["admin"] } as const;

/** The accountant kind: users with the accountant role and their assigned services. */
export const administrationAdminKinds = ({
  administration,
}: {
  administration: AdministrationDeps;
}): AdminKinds => ({
  collections: {
    accountants: collectionKind(accountantsCollection, async (actor, filter, page) => {
      const found = await adminListAccountants(administration, actor, filter, page);

      return {
        total: found.total,
        items: found.items.map((user) => ({ ...toUserDto(user), service_ids: user.serviceIds })),
      };
    }),
  },
});

/**
 * What belongs to no single area — totals, the reports export, the audit trail, accountant
 * assignments, the reporting summary — and the `{kind}` operations, which find the handler the
 * owning area contributed for the kind in the path (CollectionKind, StatusKind).
 */
export const administrationRoutes = (
  { administration }: { administration: AdministrationDeps },
  kinds: { collections: CollectionKinds; statuses: StatusKinds },
): Handled[] => [
  handle(
    administrationOperations.adminOverview,
    async (c) => ok(c, toOverviewDto(await getOverview(administration, actorOf(c)))),
    admin,
  ),
  handle(
    administrationOperations.adminReportsExportCsv,
    (c) => {
      const rows = exportReports(administration, actorOf(c));
      const day = administration.clock.now().toISOString().slice(0, 10);

      return c.body(reportsCsv(rows, requestLogger(c)), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="agora-reports-${day}.csv"`,
        "Cache-Control": "no-store",
      });
    },
    admin,
  ),
  handle(
    administrationOperations.adminAuditList,
    async (c) => {
      const { actor_id, action, target_type, target_id, since, limit, offset } = c.req.valid("query");
      const page = await listAuditEvents(
        administration,
        actorOf(c),
        {
          actorId: actor_id,
          action,
          targetType: target_type,
          targetId: target_id,
          since: since === undefined ? undefined : new Date(since),
        },
        { limit, offset },
      );

      return ok(c, page.items.map(toAuditEventDto), { meta: { limit, offset, total: page.total } });
    },
    admin,
  ),
  handle(
    administrationOperations.adminAccountantServicesGet,
    async (c) =>
      ok(
        c,
        toAccountantServicesDto(
          await getAccountantServices(administration, actorOf(c), c.req.valid("param").id),
        ),
      ),
    admin,
  ),
  handle(
    administrationOperations.adminAccountantServicesPut,
    async (c) => {
      const assigned = await replaceAccountantServices(administration, actorOf(c), {
        accountantId: c.req.valid("param").id,
        serviceIds: c.req.valid("json").service_ids,
      });

      return ok(c, toAccountantServicesDto(assigned));
    },
    admin,
  ),
  handle(administrationOperations.reportsSummary, async (c) =>
    ok(c, toReportsSummaryDto(await getReportsSummary(administration, actorOf(c)))),
  ),
  handle(
    administrationOperations.adminCollectionList,
    async (c) => {
      const { q, status, limit, offset } = c.req.valid("query");
      const found = await kindOf(kinds.collections, c.req.valid("param").kind).list(
        actorOf(c),
        { q, status },
        { limit, offset },
      );

      return ok(c, found.items, { meta: { limit, offset, total: found.total } });
    },
    { roles: ["admin", "accountant"] },
  ),
  handle(
    administrationOperations.adminStatusUpdate,
    async (c) => {
      const { kind, id } = c.req.valid("param");

      return ok(c, await kindOf(kinds.statuses, kind).change(actorOf(c), id, c.req.valid("json")));
    },
    admin,
  ),
];
