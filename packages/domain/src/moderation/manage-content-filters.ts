import type { Actor } from "../common/actor";
import { NotFoundError, ValidationError } from "../common/app-error";
import type { Page, PageRequest } from "../common/page";
import { requireRole } from "../identity/identity.policy";
import {
  type FilterAction,
  type FilterContext,
  type FilterMatch,
  normalizeRuleValue,
} from "./content-filter";
import type { ContentFilterRecord } from "./content-filter.ports";
import type { ModerationDeps } from "./moderation.deps";

export type ContentFilterInput = {
  match: FilterMatch;
  value: string;
  action: FilterAction;
  contexts: readonly FilterContext[];
};

const normalized = (match: FilterMatch, value: string): string => {
  const result = normalizeRuleValue(match, value);
  if (!result.ok) {
    throw new ValidationError([{ path: "value", message: result.problem }]);
  }

  return result.normalized;
};

/** What the audit keeps of a rule (before and after a change). */
const audited = (rule: ContentFilterInput) => ({
  match: rule.match,
  value: rule.value,
  action: rule.action,
  contexts: [...rule.contexts],
});

/** The rules, oldest first, each with its hits (admins only). */
export const listContentFilters = (
  { repos }: Pick<ModerationDeps, "repos">,
  actor: Actor,
  page: PageRequest,
): Promise<Page<ContentFilterRecord>> => {
  requireRole(actor, "admin");

  return repos.contentFilters.findPage(page);
};

/**
 * Creates a rule (admins only), audited in its transaction: its value normalized for its match
 * (422 on `value` when it cannot be), 409 conflict when a rule with the same match and normalized
 * value exists. Applies in this process at once, in the others within about a second.
 */
export const createContentFilter = async (
  deps: ModerationDeps,
  actor: Actor,
  input: ContentFilterInput,
): Promise<ContentFilterRecord> => {
  requireRole(actor, "admin");
  const normalizedValue = normalized(input.match, input.value);
  const now = deps.clock.now();
  const rule = await deps.uow.run(async (tx) => {
    const created = await tx.contentFilters.create({
      id: deps.ids.next(),
      ...input,
      normalizedValue,
      createdBy: actor.userId,
      at: now,
    });
    await tx.audit.record(
      {
        actor,
        action: "content_filter.created",
        targetType: "content_filter",
        targetId: created.id,
        after: audited(created),
      },
      now,
    );

    return created;
  });
  deps.filters.invalidate();

  return rule;
};

/** Changes a rule's fields given (admins only; 404 unknown), audited; validated as a create is. */
export const updateContentFilter = async (
  deps: ModerationDeps,
  actor: Actor,
  input: { id: string } & Partial<ContentFilterInput>,
): Promise<ContentFilterRecord> => {
  requireRole(actor, "admin");
  const now = deps.clock.now();
  const rule = await deps.uow.run(async (tx) => {
    const before = await tx.contentFilters.lockById(input.id);
    if (!before) {
      throw new NotFoundError("Filter");
    }
    const next: ContentFilterInput = {
      match: input.match ?? before.match,
      value: input.value ?? before.value,
      action: input.action ?? before.action,
      contexts: input.contexts ?? before.contexts,
    };
    const updated = await tx.contentFilters.update(before.id, {
      ...next,
      normalizedValue: normalized(next.match, next.value),
      at: now,
    });
    if (!updated) {
      throw new NotFoundError("Filter");
    }
    await tx.audit.record(
      {
        actor,
        action: "content_filter.updated",
        targetType: "content_filter",
        targetId: updated.id,
        before: audited(before),
        after: audited(updated),
      },
      now,
    );

    return updated;
  });
  deps.filters.invalidate();

  return rule;
};

/** Deletes a rule (admins only; 404 unknown), audited with what it was. Its reports stay. */
export const deleteContentFilter = async (deps: ModerationDeps, actor: Actor, id: string): Promise<void> => {
  requireRole(actor, "admin");
  const now = deps.clock.now();
  await deps.uow.run(async (tx) => {
    const before = await tx.contentFilters.lockById(id);
    if (!before || !(await tx.contentFilters.delete(before.id))) {
      throw new NotFoundError("Filter");
    }
    await tx.audit.record(
      {
        actor,
        action: "content_filter.deleted",
        targetType: "content_filter",
        targetId: before.id,
        before: { ...audited(before), hits: before.hits },
      },
      now,
    );
  });
  deps.filters.invalidate();
};
