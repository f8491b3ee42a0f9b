import { idParamSchema } from "@agora/contracts/common";
import { blockStateSchema } from "@agora/contracts/community";
import { successEnvelope } from "@agora/contracts/envelope";
import { blockUser } from "@agora/domain/community/block-user";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { unblockUser } from "@agora/domain/community/unblock-user";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { createRoute } from "@hono/zod-openapi";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";

const tags = ["Community"];
const secured = [{ bearerAuth: [] }];

const blockEffects =
  "A block applies both ways, on every surface: neither user sees the other's moments or comments in " +
  "feeds and lists, and neither can start a conversation with the other or send a message (403).";

/** Mounted at /api/v1/community. */
export const createCommunityRoutes = ({
  identity,
  community,
}: {
  identity: IdentityDeps;
  community: CommunityDeps;
}) => {
  const auth = requireAuth(identity);

  const block = createRoute({
    method: "post",
    path: "/users/{id}/block",
    tags,
    summary: "Block a user",
    description: `${blockEffects} Idempotent: 200 every time. Yourself is 422; an unknown or deleted user is 404.`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: { 200: json(successEnvelope(blockStateSchema), "Blocked."), ...errors(401, 404, 422) },
  });

  const unblock = createRoute({
    method: "delete",
    path: "/users/{id}/block",
    tags,
    summary: "Unblock a user",
    description: "Idempotent: 200 whether or not the user was blocked. Yourself is 422; an unknown user 404.",
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: { 200: json(successEnvelope(blockStateSchema), "Not blocked."), ...errors(401, 404, 422) },
  });

  return createRouter()
    .openapi(block, async (c) => {
      const { userId } = await blockUser(community, actorOf(c), c.req.valid("param").id);

      return ok(c, { user_id: userId, blocked: true });
    })
    .openapi(unblock, async (c) => {
      const { userId } = await unblockUser(community, actorOf(c), c.req.valid("param").id);

      return ok(c, { user_id: userId, blocked: false });
    });
};
