import { AppError } from "../common/app-error";
import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import { checkText, type FilterAction, type FilterContext, type FilterRule } from "./content-filter";
import type { FilterReportTargetType, FilterReportWriter } from "./content-filter.ports";
import type { ContentScreen } from "./content-filter-cache";

/** 422 content_blocked: a filter rule refuses the write; the details name the field, never the rule. */
export class ContentBlockedError extends AppError {
  constructor(field: string) {
    super("content_blocked", "This content is not allowed here.", {
      details: [{ path: field, message: "is refused by a content filter" }],
    });
  }
}

/** What screening needs: the cached rules and the clock (hits' `last_hit_at`). */
export type ScreenDeps = { filters: ContentScreen; clock: Clock };

/** A screened write's outcome: nothing to do (null), hold it, or publish it and flag it. */
export type Screening = {
  action: Exclude<FilterAction, "block"> | null;
  /** The rule that decided the action (a report names it); null when `action` is null. */
  rule: FilterRule | null;
};

const PASS: Screening = { action: null, rule: null };

/**
 * Screens a write's texts (`fields`: field path → text) in `context`, before its transaction.
 * Counts a hit on every rule that matched (one statement, only when one did). The strongest action
 * wins: `block` throws ContentBlockedError naming the field (nothing is written); `hold` and `flag`
 * are returned for the use case to apply in its transaction (held_at, fileFilterReport). With
 * `holdRefuses` (profiles: a name cannot be shown to some and not to others) `hold` refuses too.
 * The use cases that edit moments and comments call it as the creates do.
 */
export const screenText = async (
  deps: ScreenDeps,
  context: FilterContext,
  fields: Readonly<Record<string, string | null | undefined>>,
  options: { holdRefuses?: boolean } = {},
): Promise<Screening> => {
  const filters = await deps.filters.current();
  if (filters.size === 0) {
    return PASS;
  }
  const verdict = checkText(filters, context, fields);
  if (verdict.action === null) {
    return PASS;
  }
  await deps.filters.countHits(
    verdict.hits.map((hit) => hit.rule.id),
    deps.clock.now(),
  );
  if (verdict.action === "block" || (verdict.action === "hold" && options.holdRefuses)) {
    throw new ContentBlockedError(verdict.field ?? Object.keys(fields)[0] ?? "body");
  }
  const decisive = verdict.hits.find(
    (hit) => hit.rule.action === verdict.action && hit.field === verdict.field,
  );

  return { action: verdict.action, rule: decisive?.rule ?? null };
};

/**
 * Files the filter report of a held or flagged write, in its transaction (at most one open per
 * target and rule): no reporter, source `filter`, category `other`, the rule's match and value in
 * the note and the text in the snapshot. Does nothing when the screening passed.
 */
export const fileFilterReport = async (
  tx: { filterReports: FilterReportWriter },
  deps: { ids: IdGenerator },
  screening: Screening,
  target: {
    type: FilterReportTargetType;
    id: string;
    ownerId: string;
    snapshot: Record<string, unknown>;
    at: Date;
  },
): Promise<void> => {
  if (screening.action === null || screening.rule === null) {
    return;
  }
  await tx.filterReports.fileOnce({
    id: deps.ids.next(),
    targetType: target.type,
    targetId: target.id,
    targetOwnerId: target.ownerId,
    rule: screening.rule,
    snapshot: target.snapshot,
    at: target.at,
  });
};
