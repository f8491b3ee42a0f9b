import type { Actor, Role } from "../common/actor";
import { ForbiddenError } from "../common/app-error";

/** Throws 403 unless the caller holds one of `allowed`. */
export const requireRole = (actor: Actor, ...allowed: Role[]): void => {
  if (!allowed.includes(actor.role)) {
    throw new ForbiddenError(`This needs the ${allowed.join(" or ")} role.`);
  }
};

export const isAdmin = (actor: Actor): boolean => actor.role === "admin";
