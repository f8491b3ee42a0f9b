import { moderationAdminOperations } from "@agora/contracts/moderation.admin";
import {
  createContentFilter,
  deleteContentFilter,
  listContentFilters,
  updateContentFilter,
} from "@agora/domain/moderation/manage-content-filters";
import type { ModerationDeps } from "@agora/domain/moderation/moderation.deps";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toContentFilterDto } from "./moderation.presenter";

/** The content filter rules (administrators). */
export const moderationAdminRoutes = ({ moderation }: { moderation: ModerationDeps }): Handled[] => [
  handle(
    moderationAdminOperations.adminFiltersList,
    async (c) => {
      const { limit, offset } = c.req.valid("query");
      const page = await listContentFilters(moderation, actorOf(c), { limit, offset });

      return ok(c, page.items.map(toContentFilterDto), { meta: { limit, offset, total: page.total } });
    },
    { roles: ["admin"] },
  ),
  handle(
    moderationAdminOperations.adminFiltersCreate,
    async (c) => {
      const rule = await createContentFilter(moderation, actorOf(c), c.req.valid("json"));

      return ok(c, toContentFilterDto(rule), { status: 201 });
    },
    { roles: ["admin"] },
  ),
  handle(
    moderationAdminOperations.adminFiltersUpdate,
    async (c) => {
      const body = c.req.valid("json");
      const rule = await updateContentFilter(moderation, actorOf(c), {
        id: c.req.valid("param").id,
        ...(body.match === undefined ? {} : { match: body.match }),
        ...(body.value === undefined ? {} : { value: body.value }),
        ...(body.action === undefined ? {} : { action: body.action }),
        ...(body.contexts === undefined ? {} : { contexts: body.contexts }),
      });

      return ok(c, toContentFilterDto(rule));
    },
    { roles: ["admin"] },
  ),
  handle(
    moderationAdminOperations.adminFiltersDelete,
    async (c) => {
      const { id } = c.req.valid("param");
      await deleteContentFilter(moderation, actorOf(c), id);

      return ok(c, { id, deleted: true as const });
    },
    { roles: ["admin"] },
  ),
];
