import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { IdentityDeps } from "./identity.deps";
import type { User } from "./identity.types";

const toUser = ({ passwordHash: _secret, ...user }: User & { passwordHash?: string }): User => user;

/** The caller's own account. */
export const getMe = async ({ repos }: Pick<IdentityDeps, "repos">, actor: Actor): Promise<User> => {
  const user = await repos.users.findById(actor.userId);
  if (!user) {
    throw new NotFoundError("User");
  }

  return toUser(user);
};
