import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { AdministrationDeps } from "./administration.deps";

/** An accountant's assigned services (admins only); 404 unless the user is an accountant. */
export const getAccountantServices = async (
  { repos }: Pick<AdministrationDeps, "repos">,
  actor: Actor,
  accountantId: string,
): Promise<{ accountantId: string; services: Array<{ id: string; name: string }> }> => {
  requireRole(actor, "admin");
  const user = await repos.users.findById(accountantId);
  if (user?.role !== "accountant" || user.status === "deleted") {
    throw new NotFoundError("Accountant");
  }

  return { accountantId: user.id, services: await repos.accountantServices.findServices(user.id) };
};
