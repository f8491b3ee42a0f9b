import type { Actor } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { AdministrationDeps } from "./administration.deps";

/**
 * Replaces an accountant's assigned services with `serviceIds` (admins only), atomically and with
 * one audit event holding the sets before and after. 422 when the user is not an accountant or a
 * service is unknown (every unknown one is named). The accountant's row is locked meanwhile, so
 * two replacements serialize and each audit event's `before` is what it replaced.
 */
export const replaceAccountantServices = async (
  { uow, repos, clock }: Pick<AdministrationDeps, "uow" | "repos" | "clock">,
  actor: Actor,
  input: { accountantId: string; serviceIds: readonly string[] },
): Promise<{ accountantId: string; services: Array<{ id: string; name: string }> }> => {
  requireRole(actor, "admin");
  const wanted = [...new Set(input.serviceIds)];
  const known = new Set(await repos.catalog.findExistingServiceIds(wanted));
  const unknown = wanted.flatMap((id, index) =>
    known.has(id) ? [] : [{ path: `service_ids.${index}`, message: "is not a known service" }],
  );
  if (unknown.length > 0) {
    throw new ValidationError(unknown, "Some services are unknown.");
  }
  const now = clock.now();

  return uow.run(async (tx) => {
    const user = await tx.users.findByIdForUpdate(input.accountantId);
    if (user?.role !== "accountant" || user.status === "deleted") {
      throw new ValidationError(
        [{ path: "id", message: "is not an accountant" }],
        "That user is not an accountant.",
      );
    }
    const before = (await tx.accountantServices.findServices(user.id)).map((service) => service.id).sort();
    await tx.accountantServices.replace(user.id, wanted, now);
    const services = await tx.accountantServices.findServices(user.id);
    await tx.audit.record(
      {
        actor,
        action: "accountant.services_replaced",
        targetType: "user",
        targetId: user.id,
        before: { service_ids: before },
        after: { service_ids: services.map((service) => service.id).sort() },
      },
      now,
    );

    return { accountantId: user.id, services };
  });
};
