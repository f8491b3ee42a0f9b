import type { Actor } from "../shared/actor";
import { ValidationError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderProfile } from "./marketplace.types";

/**
 * Creates the caller's provider profile: owner from the token, `pending` approval, `offline`.
 * A second profile for the same user is 422 (one profile per user).
 */
export const createProvider = async (
  { repos, clock, ids }: Pick<MarketplaceDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: { displayName: string; bio?: string | undefined; phone?: string | undefined },
): Promise<ProviderProfile> => {
  const now = clock.now();
  const profile: ProviderProfile = {
    id: ids.next(),
    userId: actor.userId,
    displayName: input.displayName,
    bio: input.bio ?? "",
    phone: input.phone ?? null,
    approvalStatus: "pending",
    availability: "offline",
    createdAt: now,
  };
  if (!(await repos.providers.create(profile, now))) {
    throw new ValidationError([{ path: "user", message: "already has a provider profile" }]);
  }

  return profile;
};
