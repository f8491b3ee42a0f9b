import type { CollectionFilter } from "../administration/administration.types";
import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import type { IdentityDeps } from "./identity.deps";
import { requireRole } from "./identity.policy";
import type { User, UserStatus } from "./identity.types";

/** Every user, newest first (admins only); see UserRepository.findPage for what `q` matches. */
export const adminListUsers = (
  { repos }: Pick<IdentityDeps, "repos">,
  actor: Actor,
  filter: CollectionFilter<UserStatus>,
  page: PageRequest,
): Promise<Page<User>> => {
  requireRole(actor, "admin");

  return repos.users.findPage(filter, page);
};
