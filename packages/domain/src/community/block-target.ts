import type { Actor } from "../common/actor";
import { NotFoundError, ValidationError } from "../common/app-error";
import type { CommunityDeps } from "./community.deps";

/** The user a block names: not oneself (422), and an account that exists and is not deleted (404). */
export const findBlockTarget = async (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  userId: string,
) => {
  if (userId === actor.userId) {
    throw new ValidationError([{ path: "id", message: "cannot be yourself" }]);
  }
  const user = await repos.users.findById(userId);
  if (!user || user.status === "deleted") {
    throw new NotFoundError("User");
  }

  return user;
};
