import type { Actor } from "../common/actor";
import type { CommunityDeps } from "./community.deps";
import { FEED_PAGE_SIZE, type Moment } from "./community.types";

/**
 * The caller's feed: the 50 newest moments they may see (blocks both ways, hidden moments only
 * for their author), each with its counters and whether the caller likes it. `before` (a moment
 * id from the previous page) pages back.
 */
export const listFeed = (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  before: string | undefined,
): Promise<Moment[]> => repos.moments.listFeed(actor.userId, { before, limit: FEED_PAGE_SIZE });
