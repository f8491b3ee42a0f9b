import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { IdentityDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import type { User } from "./identity.types";

/** Changes the caller's username and display name (409 username_taken when another account has it). */
export const updateMe = async (
  { repos, clock }: Pick<IdentityDeps, "repos" | "clock">,
  actor: Actor,
  input: { username: string; displayName: string },
): Promise<User> => {
  const updated = await repos.users.updateProfile(
    actor.userId,
    { username: input.username.trim(), displayName: input.displayName.trim() },
    clock.now(),
  );
  if (updated === "username_taken") {
    throw new UsernameTakenError();
  }
  if (!updated) {
    throw new NotFoundError("User");
  }

  return updated;
};
