import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { findBlockTarget } from "./block-target";
import type { CommunityDeps } from "./community.deps";
import type { Mute } from "./own-content.ports";

/**
 * Mutes a user (docs/safety.md, "Mutes"): their moments and comments leave the caller's feed and
 * comment lists, and their messages notify the caller no more; they are not told. Idempotent.
 * Yourself is 422, an unknown or deleted user 404 (as a block).
 */
export const muteUser = async (
  deps: Pick<CommunityDeps, "repos" | "clock">,
  actor: Actor,
  userId: string,
): Promise<{ userId: string }> => {
  const user = await findBlockTarget(deps, actor, userId);
  await deps.repos.mutes.mute(actor.userId, user.id, deps.clock.now());

  return { userId: user.id };
};

/** Removes the caller's mute of a user. Idempotent: unmuting someone not muted changes nothing. */
export const unmuteUser = async (
  deps: Pick<CommunityDeps, "repos">,
  actor: Actor,
  userId: string,
): Promise<{ userId: string }> => {
  const user = await findBlockTarget(deps, actor, userId);
  await deps.repos.mutes.unmute(actor.userId, user.id);

  return { userId: user.id };
};

/** The caller's mutes, newest first. */
export const listMutes = (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  page: PageRequest,
): Promise<Page<Mute>> => repos.mutes.list(actor.userId, page);
