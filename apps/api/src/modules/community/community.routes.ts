import { communityOperations } from "@agora/contracts/community";
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
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { cursorMeta, toCommentDto, toCountersDto, toMomentDto, toReportDto } from "./community.presenter";

export const communityRoutes = ({ community }: { community: CommunityDeps }): Handled[] => [
  handle(communityOperations.communityFeed, async (c) => {
    const moments = await listFeed(community, actorOf(c), c.req.valid("query").before);

    return ok(c, moments.map(toMomentDto), { meta: cursorMeta(moments, FEED_PAGE_SIZE) });
  }),
  handle(communityOperations.momentsCreate, async (c) => {
    const input = c.req.valid("json");
    const moment = await createMoment(community, actorOf(c), {
      body: input.body,
      mediaAssetIds: input.media_asset_ids,
    });

    return ok(c, toMomentDto(moment), { status: 201 });
  }),
  handle(communityOperations.momentsLike, async (c) =>
    ok(c, toCountersDto(await likeMoment(community, actorOf(c), c.req.valid("param").id))),
  ),
  handle(communityOperations.momentsView, async (c) =>
    ok(c, toCountersDto(await viewMoment(community, actorOf(c), c.req.valid("param").id))),
  ),
  handle(communityOperations.momentsCounters, async (c) =>
    ok(c, toCountersDto(await getMomentCounters(community, actorOf(c), c.req.valid("param").id))),
  ),
  handle(communityOperations.momentCommentsList, async (c) => {
    const { limit, before } = c.req.valid("query");
    const page = await listComments(community, actorOf(c), c.req.valid("param").id, { limit, before });

    return ok(c, page.map(toCommentDto), { meta: cursorMeta(page, limit) });
  }),
  handle(communityOperations.momentCommentsCreate, async (c) => {
    const created = await addComment(community, actorOf(c), {
      momentId: c.req.valid("param").id,
      body: c.req.valid("json").body,
    });

    return ok(c, toCommentDto(created), { status: 201 });
  }),
  handle(communityOperations.momentsReport, async (c) => {
    const input = c.req.valid("json");
    const { report: filed, created } = await reportMoment(community, actorOf(c), {
      momentId: c.req.valid("param").id,
      reason: input.reason,
      note: input.note,
    });

    return created ? ok(c, toReportDto(filed), { status: 201 }) : ok(c, toReportDto(filed));
  }),
  handle(communityOperations.usersBlock, async (c) => {
    const { userId } = await blockUser(community, actorOf(c), c.req.valid("param").id);

    return ok(c, { user_id: userId, blocked: true });
  }),
  handle(communityOperations.usersUnblock, async (c) => {
    const { userId } = await unblockUser(community, actorOf(c), c.req.valid("param").id);

    return ok(c, { user_id: userId, blocked: false });
  }),
];
