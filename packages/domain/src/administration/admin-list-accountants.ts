import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { User, UserStatus } from "../identity/identity.types";
import type { AdministrationDeps } from "./administration.deps";
import type { CollectionFilter } from "./administration.types";

/** Users with the accountant role, newest first, each with its assigned service ids (admins only). */
export const adminListAccountants = async (
  { repos }: Pick<AdministrationDeps, "repos">,
  actor: Actor,
  filter: CollectionFilter<UserStatus>,
  page: PageRequest,
): Promise<Page<User & { serviceIds: string[] }>> => {
  requireRole(actor, "admin");
  const found = await repos.users.findPage({ ...filter, role: "accountant" }, page);
  const assigned = await repos.accountantServices.findServiceIdsByAccountants(
    found.items.map((user) => user.id),
  );

  return {
    total: found.total,
    items: found.items.map((user) => ({ ...user, serviceIds: assigned.get(user.id) ?? [] })),
  };
};
