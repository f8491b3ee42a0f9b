import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { IdentityDeps } from "./identity.deps";
import type { User } from "./identity.types";

const toUser = ({ passwordHash: _secret, ...user }: User & { passwordHash?: string }): User => user;

/** The caller's own account, with its avatar (`media`: one image or none). */
export const getMe = async (
  { repos, clock, objects }: Pick<IdentityDeps, "repos" | "clock" | "objects">,
  actor: Actor,
): Promise<{ user: User; media: RecordMedia[] }> => {
  const [user, avatar] = await Promise.all([
    repos.users.findById(actor.userId),
    repos.media.findOnRecord("user", actor.userId),
  ]);
  if (!user) {
    throw new NotFoundError("User");
  }

  return { user: toUser(user), media: await recordMedia(objects, avatar, clock.now(), actor.userId) };
};
