import type { CollectionFilter } from "../administration/administration.types";
import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { PaymentsDeps } from "./payments.deps";
import type { Payment, PaymentStatus } from "./payments.types";

/** Every payment, newest first (admins only). */
export const adminListPayments = (
  { repos }: Pick<PaymentsDeps, "repos">,
  actor: Actor,
  filter: CollectionFilter<PaymentStatus>,
  page: PageRequest,
): Promise<Page<Payment>> => {
  requireRole(actor, "admin");

  return repos.payments.findPage(filter, page);
};
