import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import type { AdministrationDeps } from "./administration.deps";
import type { AuditEvent, AuditFilter } from "./administration.types";

/** The audit trail, newest first, filtered by actor, action, target and time (admins only). */
export const listAuditEvents = (
  { repos }: Pick<AdministrationDeps, "repos">,
  actor: Actor,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Page<AuditEvent>> => {
  requireRole(actor, "admin");

  return repos.auditEvents.findPage(filter, page);
};
