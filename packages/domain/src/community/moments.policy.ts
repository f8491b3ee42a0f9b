import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { assertNotBlocked } from "./blocks.policy";
import type { CommunityRepositories } from "./community.ports";
import type { Moment } from "./community.types";

/** The facts a moment's visibility to one viewer is decided from. */
export type MomentVisibilityFacts = {
  /** The viewer wrote it. */
  isAuthor: boolean;
  /** Moderation hid it. */
  hidden: boolean;
  /** Its author is present (authorPresent: the account is active). */
  authorPresent: boolean;
  /** The viewer and its author block each other, either way. */
  blockedEitherWay: boolean;
};

/**
 * Who sees a moment, blocks aside: its author always; anyone else while moderation has not hidden
 * it and its author is present (a suspended or deleted author's moments leave every read by
 * others, and come back on reactivation). Mirrors the SQL function of the same name
 * (`moment_visible_if_unblocked`, migration 20261210000000_moment_visibility_rule), which every
 * read of moments calls (momentVisibleToSql in packages/db/src/repositories/community/
 * moment-queries.ts); packages/db/test/moment-visibility.int.test.ts proves they agree, and
 * apps/api/src/modules/community/author-presence.int.test.ts reads each before, during and after a
 * suspension.
 */
export const momentVisibleIfUnblocked = (
  facts: Pick<MomentVisibilityFacts, "isAuthor" | "hidden" | "authorPresent">,
): boolean => facts.isAuthor || (!facts.hidden && facts.authorPresent);

/**
 * The whole moment rule: visible if unblocked, and no block either way between the viewer and the
 * author (the block rule, blocks.policy.ts). The feed returns exactly these moments (in SQL the
 * block is a NOT EXISTS beside moment_visible_if_unblocked); a single read answers 404 for a
 * moment not visible if unblocked and 403 across a block (findVisibleMoment).
 */
export const momentVisible = (facts: MomentVisibilityFacts): boolean =>
  momentVisibleIfUnblocked(facts) && !facts.blockedEitherWay;

/**
 * The moment a route names, as the caller sees it: 404 when absent or hidden from them, 403 when
 * the caller and its author block each other either way (the one block rule).
 */
export const findVisibleMoment = async (
  repos: Pick<CommunityRepositories, "moments" | "blocks">,
  actor: Actor,
  momentId: string,
): Promise<Moment> => {
  const moment = await repos.moments.findById(momentId, actor.userId);
  if (
    !moment ||
    !momentVisibleIfUnblocked({
      isAuthor: moment.author.id === actor.userId,
      // Held by a content filter: like hidden, its author's only until a moderator approves it.
      hidden: moment.hidden || moment.held,
      authorPresent: moment.authorActive,
    })
  ) {
    throw new NotFoundError("Moment");
  }
  await assertNotBlocked(repos.blocks, actor.userId, moment.author.id);

  return moment;
};
