import type { Page, PageRequest } from "../common/page";
import type { FilterAction, FilterContext, FilterMatch, FilterRule } from "./content-filter";

/** A rule as administrators see it: the matcher's fields, its hits, who made it and when. */
export type ContentFilterRecord = FilterRule & {
  hits: number;
  lastHitAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type NewContentFilter = {
  id: string;
  match: FilterMatch;
  value: string;
  normalizedValue: string;
  action: FilterAction;
  contexts: readonly FilterContext[];
  createdBy: string | null;
  at: Date;
};

export type ContentFilterChange = {
  match: FilterMatch;
  value: string;
  normalizedValue: string;
  action: FilterAction;
  contexts: readonly FilterContext[];
  at: Date;
};

/** The administrators' rules (content-filters.repository.ts). */
export interface ContentFilterRepository {
  findPage(page: PageRequest): Promise<Page<ContentFilterRecord>>;
  /** The rule, its row locked when inside a transaction. */
  lockById(id: string): Promise<ContentFilterRecord | null>;
  /** Inserts the rule; ContentFilterConflictError when its match and normalized value exist. */
  create(rule: NewContentFilter): Promise<ContentFilterRecord>;
  /** Updates the rule; ContentFilterConflictError when its match and normalized value exist. */
  update(id: string, change: ContentFilterChange): Promise<ContentFilterRecord | null>;
  delete(id: string): Promise<boolean>;
}

/** What the per-process rule cache reads, and where hits are counted (outside any transaction). */
export interface ContentFilterSource {
  /** Changes whenever a rule is created, changed or deleted (not when it hits). */
  fingerprint(): Promise<string>;
  loadAll(): Promise<FilterRule[]>;
  /** One statement: `hits + 1` and `last_hit_at` for each rule. */
  countHits(ruleIds: readonly string[], at: Date): Promise<void>;
}

/** The kinds of record a filter report is about (reports.target_type). */
export type FilterReportTargetType = "moment" | "comment" | "message" | "user" | "dating_profile" | "listing";

export type FilterReport = {
  id: string;
  targetType: FilterReportTargetType;
  targetId: string;
  targetOwnerId: string;
  rule: Pick<FilterRule, "id" | "match" | "value">;
  /** The text as written, by field (`{ body }`, `{ name, description }`). */
  snapshot: Record<string, unknown>;
  at: Date;
};

/** Files filter reports (filter-reports.repository.ts). */
export interface FilterReportWriter {
  /** Inserts the report unless one is open (or reviewing) for the same target and rule. */
  fileOnce(report: FilterReport): Promise<boolean>;
}
