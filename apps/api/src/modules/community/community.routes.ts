import { idParamSchema } from "@agora/contracts/common";
import {
  blockStateSchema,
  commentSchema,
  commentsQuerySchema,
  createCommentRequestSchema,
  createMomentRequestSchema,
  cursorMetaSchema,
  cursorQuerySchema,
  momentCountersSchema,
  momentReportSchema,
  momentSchema,
  reportMomentRequestSchema,
} from "@agora/contracts/community";
import { successEnvelope } from "@agora/contracts/envelope";
import { addComment } from "@agora/domain/community/add-comment";
import { blockUser } from "@agora/domain/community/block-user";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { FEED_PAGE_SIZE } from "@agora/domain/community/community.types";
import { createMoment } from "@agora/domain/community/create-moment";
import { getMomentCounters } from "@agora/domain/community/get-moment-counters";
import { likeMoment } from "@agora/domain/community/like-moment";
import { listComments } from "@agora/domain/community/list-comments";
import { listFeed } from "@agora/domain/community/list-feed";
import { reportMoment } from "@agora/domain/community/report-moment";
import { unblockUser } from "@agora/domain/community/unblock-user";
import { viewMoment } from "@agora/domain/community/view-moment";
import type { IdentityDeps } from "@agora/domain/identity/identity.deps";
import { createRoute, z } from "@hono/zod-openapi";
import { actorOf, requireAuth } from "../../http/middleware/auth";
import { body, createRouter, errors, json } from "../../http/openapi";
import { ok } from "../../http/respond";
import { cursorMeta, toCommentDto, toCountersDto, toMomentDto, toReportDto } from "./community.presenter";

const tags = ["Community"];
const secured = [{ bearerAuth: [] }];

const blockEffects =
  "A block applies both ways, on every surface: neither user sees the other's moments or comments in " +
  "feeds and lists, and neither can start a conversation with the other or send a message (403).";

/** What every route under /moments/{id} answers for a moment the caller may not see. */
const momentAccess =
  "404 when the moment does not exist or was hidden by moderation (its author still sees it); 403 when the " +
  "caller and its author block each other (either way).";

/** Mounted at /api/v1/community. */
export const createCommunityRoutes = ({
  identity,
  community,
}: {
  identity: IdentityDeps;
  community: CommunityDeps;
}) => {
  const auth = requireAuth(identity);

  const feed = createRoute({
    method: "get",
    path: "/feed",
    tags,
    summary: "The caller's feed",
    description:
      `The ${FEED_PAGE_SIZE} newest public moments the caller may see, newest first: moments of users the caller ` +
      "blocks or is blocked by are left out, and so are moments hidden by moderation (except the caller's own, " +
      "marked `hidden`). Each carries its counters and whether the caller likes it. Page back with `before` = " +
      "`meta.next_before` (the last moment's id); a `before` that names no moment gives an empty page.",
    security: secured,
    middleware: [auth],
    request: { query: cursorQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(momentSchema), cursorMetaSchema), "A page of moments."),
      ...errors("unauthorized", "validation_failed"),
    },
  });

  const create = createRoute({
    method: "post",
    path: "/moments",
    tags,
    summary: "Publish a moment",
    description:
      "Text (`body`, up to 2000 characters), media or both; neither is 422. `media_asset_ids`: up to 5 of the " +
      "caller's own assets uploaded for `moment` (`POST /api/v1/media/upload`), not attached elsewhere; each " +
      "upload is confirmed with the object store first (422 when the bytes are not there as declared, 503 " +
      "`storage_unavailable` when the store does not answer). Attaching makes the assets public.",
    security: secured,
    middleware: [auth],
    request: body(createMomentRequestSchema),
    responses: {
      201: json(successEnvelope(momentSchema), "Published."),
      ...errors("unauthorized", "validation_failed", "storage_unavailable"),
    },
  });

  const like = createRoute({
    method: "post",
    path: "/moments/{id}/like",
    tags,
    summary: "Like a moment",
    description: `Idempotent: liking again (or twice at once) keeps one like and answers 200 both times, with the counters. ${momentAccess}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(momentCountersSchema), "Liked; the moment's counters."),
      ...errors("unauthorized", "forbidden", "not_found"),
    },
  });

  const view = createRoute({
    method: "post",
    path: "/moments/{id}/view",
    tags,
    summary: "Record a view of a moment",
    description: `A view counts once per user (the author's own included); 200 every time, with the counters. ${momentAccess}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(momentCountersSchema), "Viewed; the moment's counters."),
      ...errors("unauthorized", "forbidden", "not_found"),
    },
  });

  const counters = createRoute({
    method: "get",
    path: "/moments/{id}/counters",
    tags,
    summary: "A moment's counters",
    description:
      "`{ likes, views, comments }`, kept by the server in the same transaction as each like, view and comment. " +
      momentAccess,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(momentCountersSchema), "The counters."),
      ...errors("unauthorized", "forbidden", "not_found"),
    },
  });

  const comments = createRoute({
    method: "get",
    path: "/moments/{id}/comments",
    tags,
    summary: "A moment's comments",
    description:
      "Newest first, `limit` at a time (1-100, default 50; anything else is 422); page back with `before` = " +
      "`meta.next_before`. Comments of users the caller blocks or is blocked by are left out. " +
      momentAccess,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, query: commentsQuerySchema },
    responses: {
      200: json(successEnvelope(z.array(commentSchema), cursorMetaSchema), "A page of comments."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed"),
    },
  });

  const comment = createRoute({
    method: "post",
    path: "/moments/{id}/comments",
    tags,
    summary: "Comment on a moment",
    description: `\`body\`: 1 to 2000 characters (trimmed). The moment's comment counter moves with it. ${momentAccess}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(createCommentRequestSchema) },
    responses: {
      201: json(successEnvelope(commentSchema), "Commented."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed"),
    },
  });

  const report = createRoute({
    method: "post",
    path: "/moments/{id}/report",
    tags,
    summary: "Report a moment to the moderators",
    description:
      "`reason`: spam, abuse, illegal or other; `note` up to 2000 characters. 201 with the new report (status " +
      "`open`). A reporter has one open report per moment: while theirs is `open` or `reviewing`, reporting " +
      "again files nothing and answers 200 with that report as it is; once it is `resolved` or `dismissed`, a " +
      `new report can be filed. ${momentAccess}`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema, ...body(reportMomentRequestSchema) },
    responses: {
      201: json(successEnvelope(momentReportSchema), "Reported."),
      200: json(successEnvelope(momentReportSchema), "Already reported: the caller's open report."),
      ...errors("unauthorized", "forbidden", "not_found", "validation_failed"),
    },
  });

  const block = createRoute({
    method: "post",
    path: "/users/{id}/block",
    tags,
    summary: "Block a user",
    description: `${blockEffects} Idempotent: 200 every time. Yourself is 422; an unknown or deleted user is 404.`,
    security: secured,
    middleware: [auth],
    request: { params: idParamSchema },
    responses: {
      200: json(successEnvelope(blockStateSchema), "Blocked."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
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
    responses: {
      200: json(successEnvelope(blockStateSchema), "Not blocked."),
      ...errors("unauthorized", "not_found", "validation_failed"),
    },
  });

  return createRouter()
    .openapi(feed, async (c) => {
      const moments = await listFeed(community, actorOf(c), c.req.valid("query").before);

      return ok(c, moments.map(toMomentDto), { meta: cursorMeta(moments, FEED_PAGE_SIZE) });
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const moment = await createMoment(community, actorOf(c), {
        body: input.body,
        mediaAssetIds: input.media_asset_ids,
      });

      return ok(c, toMomentDto(moment), { status: 201 });
    })
    .openapi(like, async (c) =>
      ok(c, toCountersDto(await likeMoment(community, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(view, async (c) =>
      ok(c, toCountersDto(await viewMoment(community, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(counters, async (c) =>
      ok(c, toCountersDto(await getMomentCounters(community, actorOf(c), c.req.valid("param").id))),
    )
    .openapi(comments, async (c) => {
      const { limit, before } = c.req.valid("query");
      const page = await listComments(community, actorOf(c), c.req.valid("param").id, { limit, before });

      return ok(c, page.map(toCommentDto), { meta: cursorMeta(page, limit) });
    })
    .openapi(comment, async (c) => {
      const created = await addComment(community, actorOf(c), {
        momentId: c.req.valid("param").id,
        body: c.req.valid("json").body,
      });

      return ok(c, toCommentDto(created), { status: 201 });
    })
    .openapi(report, async (c) => {
      const input = c.req.valid("json");
      const { report: filed, created } = await reportMoment(community, actorOf(c), {
        momentId: c.req.valid("param").id,
        reason: input.reason,
        note: input.note,
      });

      return created ? ok(c, toReportDto(filed), { status: 201 }) : ok(c, toReportDto(filed));
    })
    .openapi(block, async (c) => {
      const { userId } = await blockUser(community, actorOf(c), c.req.valid("param").id);

      return ok(c, { user_id: userId, blocked: true });
    })
    .openapi(unblock, async (c) => {
      const { userId } = await unblockUser(community, actorOf(c), c.req.valid("param").id);

      return ok(c, { user_id: userId, blocked: false });
    });
};
