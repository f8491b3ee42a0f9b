import { communityOperations } from "@agora/contracts/community";
import type { CommunityDeps } from "@agora/domain/community/community.deps";
import { deleteComment } from "@agora/domain/community/delete-comment";
import { deleteMoment } from "@agora/domain/community/delete-moment";
import { editComment } from "@agora/domain/community/edit-comment";
import { editMoment } from "@agora/domain/community/edit-moment";
import { listMutes, muteUser, unmuteUser } from "@agora/domain/community/mute-user";
import { unlikeMoment } from "@agora/domain/community/unlike-moment";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toCommentDto, toCountersDto, toMomentDto, toUserSummaryDto } from "./community.presenter";

/** An author's own moments and comments (edit, delete), likes taken back, and mutes (docs/safety.md). */
export const ownContentRoutes = ({ community }: { community: CommunityDeps }): Handled[] => [
  handle(communityOperations.momentsEdit, async (c) => {
    const moment = await editMoment(community, actorOf(c), {
      momentId: c.req.valid("param").id,
      body: c.req.valid("json").body,
    });

    return ok(c, toMomentDto(moment));
  }),
  handle(communityOperations.momentsDelete, async (c) => {
    const { id } = await deleteMoment(community, actorOf(c), c.req.valid("param").id);

    return ok(c, { id, deleted: true as const });
  }),
  handle(communityOperations.momentsUnlike, async (c) =>
    ok(c, toCountersDto(await unlikeMoment(community, actorOf(c), c.req.valid("param").id))),
  ),
  handle(communityOperations.commentsEdit, async (c) => {
    const comment = await editComment(community, actorOf(c), {
      commentId: c.req.valid("param").id,
      body: c.req.valid("json").body,
    });

    return ok(c, toCommentDto(comment));
  }),
  handle(communityOperations.commentsDelete, async (c) => {
    const { id } = await deleteComment(community, actorOf(c), c.req.valid("param").id);

    return ok(c, { id, deleted: true as const });
  }),
  handle(communityOperations.usersMute, async (c) => {
    const { userId } = await muteUser(community, actorOf(c), c.req.valid("param").id);

    return ok(c, { user_id: userId, muted: true });
  }),
  handle(communityOperations.usersUnmute, async (c) => {
    const { userId } = await unmuteUser(community, actorOf(c), c.req.valid("param").id);

    return ok(c, { user_id: userId, muted: false });
  }),
  handle(communityOperations.mutesList, async (c) => {
    const page = c.req.valid("query");
    const result = await listMutes(community, actorOf(c), page);

    return ok(
      c,
      result.items.map((mute) => ({
        user: toUserSummaryDto(mute.user),
        muted_at: mute.createdAt.toISOString(),
      })),
      { meta: { ...page, total: result.total } },
    );
  }),
];
