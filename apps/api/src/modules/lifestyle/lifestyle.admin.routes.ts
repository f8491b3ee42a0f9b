import { successEnvelope } from "@agora/contracts/envelope";
import { announcementSchema } from "@agora/contracts/lifestyle";
import { createAnnouncementRequestSchema } from "@agora/contracts/lifestyle.admin";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { createAnnouncement } from "@agora/domain/lifestyle/create-announcement";
import type { LifestyleDeps } from "@agora/domain/lifestyle/lifestyle.deps";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth, requireRoles } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { toAnnouncementDto } from "./lifestyle.presenter";

/** Mounted at /api/v1/admin. */
export const createLifestyleAdminRoutes = ({
  identity,
  lifestyle,
}: {
  identity: IdentityDeps;
  lifestyle: LifestyleDeps;
}) => {
  const create = createRoute({
    method: "post",
    path: "/announcements",
    tags: ["Administration"],
    summary: "Publish an announcement",
    description:
      "Published at once unless `published: false` (kept as a draft, not listed). Audited. Administrators only.",
    security: [{ bearerAuth: [] }],
    middleware: [requireAuth(identity), requireRoles("admin")],
    request: body(createAnnouncementRequestSchema),
    responses: {
      201: json(successEnvelope(announcementSchema), "Created."),
      ...errors("unauthorized", "forbidden", "validation_failed"),
    },
  });

  return createRouter().openapi(create, async (c) => {
    const announcement = await createAnnouncement(lifestyle, actorOf(c), c.req.valid("json"));

    return ok(c, toAnnouncementDto(announcement), { status: 201 });
  });
};
