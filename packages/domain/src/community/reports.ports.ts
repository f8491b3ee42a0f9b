import type { Page, PageRequest } from "../common/page";
import type { ReportReason, ReportStatus } from "./community.types";
import type {
  ContentEdit,
  ContextMessage,
  ReportableTarget,
  ReportCategory,
  ReportTargetType,
  TargetGroup,
  TargetReport,
  TargetState,
} from "./reports.types";

export type NewTargetReport = {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  targetOwnerId: string | null;
  reporterId: string;
  category: ReportCategory;
  reason: ReportReason;
  note: string | null;
  snapshot: Record<string, unknown>;
  createdAt: Date;
};

export type TargetReportFilter = {
  status?: ReportStatus | undefined;
  targetType?: ReportTargetType | undefined;
  category?: ReportCategory | undefined;
};

/** What a decision closing a target's reports records on each. */
export type ClosingChange = {
  status: "resolved" | "dismissed";
  decision: string;
  reviewerId: string;
  note: string | null;
  at: Date;
};

/** Reports of every target (the `reports` table) and what moderators do to their targets. */
export interface TargetReportRepository {
  /**
   * The target as `viewerId` may see it, with its owner and a snapshot of what it is now (body,
   * media ids, names, the owner's username and display name); null when absent or not theirs to
   * see (docs/safety.md, "Reports": the rule per target type). Moments go through findVisibleMoment.
   */
  findReportable(
    type: Exclude<ReportTargetType, "moment">,
    id: string,
    viewerId: string,
    now: Date,
  ): Promise<ReportableTarget | null>;
  /**
   * Files the report unless the reporter has one open (open or reviewing) on the target:
   * "created" with the new report, or "open_exists" with that open one (reports_one_open_idx).
   */
  file(report: NewTargetReport): Promise<{ outcome: "created" | "open_exists"; report: TargetReport }>;
  /** Reports oldest first, filtered. */
  findPage(filter: TargetReportFilter, page: PageRequest): Promise<Page<TargetReport>>;
  /**
   * One entry per target with undecided reports (open or reviewing; of `category` and
   * `targetType` when given), ordered by its oldest undecided report; `total` counts targets.
   */
  findGroups(filter: Omit<TargetReportFilter, "status">, page: PageRequest): Promise<Page<TargetGroup>>;
  /** The target as it is now (moderators' view); null when it is gone. */
  findCurrent(type: ReportTargetType, id: string): Promise<TargetState | null>;
  /** Every report on the target, oldest first. */
  findOnTarget(type: ReportTargetType, id: string): Promise<TargetReport[]>;
  /** The earlier texts of a moment or comment, oldest first. */
  findEdits(type: ReportTargetType, id: string): Promise<ContentEdit[]>;
  /** The message and at most `each` messages before and after it in its conversation, in order. */
  findMessageContext(messageId: string, each: number): Promise<ContextMessage[]>;
  /** Serializes decisions on one target for the rest of the transaction. */
  lockTarget(type: ReportTargetType, id: string): Promise<void>;
  /** Closes every open (open or reviewing) report on the target, oldest first, with the status each had. */
  closeOpen(
    type: ReportTargetType,
    id: string,
    change: ClosingChange,
  ): Promise<(TargetReport & { previousStatus: ReportStatus })[]>;
  /** Hides a comment-less target: a dating profile (visible = false), a listing (status suspended). */
  hide(type: "dating_profile" | "listing", id: string, at: Date): Promise<void>;
  /**
   * Deletes the target: a message (body replaced, media links dropped: the conversation's sequence
   * stays whole), a dating profile (its photos detached and private, to the orphan purge), a
   * meeting (ended). Moments and comments are deleted as their authors delete them
   * (OwnContentRepository). False: already gone (a meeting: already ended).
   */
  remove(type: "message" | "dating_profile" | "meeting", id: string, at: Date): Promise<boolean>;
  /**
   * Clears held_at on the target's row (a filter's hold released); whether it was held. A message
   * is delivered as a new one in the same statement (MessageRepository.release: the
   * conversation's next seq at `at`, `message.sent`, the realtime signal).
   */
  release(type: HoldableTarget, id: string, at: Date): Promise<boolean>;
}

/** The targets a filter rule can hold (they have `held_at`). */
export type HoldableTarget = "moment" | "comment" | "message" | "dating_profile" | "listing";
