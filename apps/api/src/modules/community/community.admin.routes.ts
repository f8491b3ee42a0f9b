import { idParamSchema } from "@agora/contracts/common";
import {
  moderatedReportSchema,
  moderateRequestSchema,
  reportStatusRequestSchema,
  reportsQuerySchema,
} from "@agora/contracts/community.admin";
import { pageMetaSchema, successEnvelope } from "@agora/contracts/envelope";
import { changeReportStatus } from "@agora/domain/community/change-report-status";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { listReports } from "@agora/domain/community/list-reports";
import { moderateReport } from "@agora/domain/community/moderate-report";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toModeratedReportDto } from "./community.presenter";

const tags = ["Administration"];
const secured = [{ bearerAuth: [] }];

/** Mounted at /api/v1/admin: the moderators' queue and decisions. */
export const createCommunityAdminRoutes = ({
  identity,
  community,
}: {
  identity: IdentityDeps;
  community: CommunityDeps;
}) => {
  const admin = [requireAuth(identity), requireRoles("admin")];

  const list = createRoute({
    method: "get",
    path: "/community/reports",
    tags,
    summary: "The moderation queue",
    description:
      "Reports oldest first, optionally of one `status` (`open`, `reviewing`, `resolved`, `dismissed`), with the " +
      "reported moment's author and whether it is hidden. `meta` carries `{ limit, offset, total }`.",
    security: secured,
    middleware: admin,
    request: { query: reportsQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(moderatedReportSchema), pageMetaSchema), "A page of reports."),
      ...errors("unauthorized", "forbidden", "validation_failed"),
    },
  });

  const moderate = createRoute({
    method: "post",
    path: "/community/reports/{id}/moderate",
    tags,
    summary: "Decide a report",
    description:
      "Applies `action` and closes the report in one transaction, audited: `hide_moment` hides the moment from " +
      "everyone but its author, `restore_moment` shows it again, `suspend_user` suspends the moment's author (every " +
      "session revoked), `none` changes nothing. The report becomes `resolved` (`dismissed` for `none`) and its " +
      "reporter gets an inbox notification of the outcome. A report already resolved or dismissed is 422 " +
      "`invalid_transition`; an unknown one 404.",
    security: secured,
    middleware: admin,
    request: { params: idParamSchema, ...body(moderateRequestSchema) },
    responses: {
      200: json(successEnvelope(moderatedReportSchema), "The closed report."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed", "invalid_transition"),
    },
  });

  const status = createRoute({
    method: "post",
    path: "/community/reports/{id}/status",
    tags,
    summary: "Move a report",
    description:
      "The moves: `open` → `reviewing` | `dismissed`; `reviewing` → `open` | `resolved` | `dismissed`; " +
      "`resolved` and `dismissed` are final. Any other move is 422 `invalid_transition`, an unknown status 422 " +
      "`validation_failed`. Audited; closing a report tells its reporter.",
    security: secured,
    middleware: admin,
    request: { params: idParamSchema, ...body(reportStatusRequestSchema) },
    responses: {
      200: json(successEnvelope(moderatedReportSchema), "The report."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed", "invalid_transition"),
    },
  });

  return createRouter()
    .openapi(list, async (c) => {
      const { status: only, limit, offset } = c.req.valid("query");
      const page = await listReports(community, actorOf(c), { status: only }, { limit, offset });

      return ok(c, page.items.map(toModeratedReportDto), { meta: { limit, offset, total: page.total } });
    })
    .openapi(moderate, async (c) => {
      const input = c.req.valid("json");
      const report = await moderateReport(community, actorOf(c), {
        reportId: c.req.valid("param").id,
        action: input.action,
        note: input.note,
      });

      return ok(c, toModeratedReportDto(report));
    })
    .openapi(status, async (c) => {
      const report = await changeReportStatus(community, actorOf(c), {
        reportId: c.req.valid("param").id,
        status: c.req.valid("json").status,
      });

      return ok(c, toModeratedReportDto(report));
    });
};
