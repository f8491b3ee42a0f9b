import type { Page, PageRequest } from "../common/page";
import type { MediaRepositories } from "../media/media.ports";
import type { Comment, ModeratedReport, Moment, MomentCounters, ReportStatus } from "./community.types";
import type { OwnContentRepositories } from "./own-content.ports";
import type { TargetReportRepository } from "./reports.ports";

/** The block graph: one table, read by every surface that shows one user to another. */
export interface BlockRepository {
  /** Records that `blockerId` blocks `blockedId`; a second time changes nothing. */
  block(blockerId: string, blockedId: string, at: Date): Promise<void>;
  /** Removes the block, if any. */
  unblock(blockerId: string, blockedId: string): Promise<void>;
  /** Whether either of the two blocks the other. */
  isBlockedEitherWay(userId: string, otherId: string): Promise<boolean>;
}

export type NewMoment = {
  id: string;
  authorId: string;
  body: string | null;
  mediaAssetIds: readonly string[];
  createdAt: Date;
  /** Set when a content filter holds it: visible to its author only until approved. */
  heldAt?: Date | null;
};

/** Where a page of a newest-first list starts: after the item with this id (exclusive). */
export type Cursor = { before: string | undefined; limit: number };

export interface MomentRepository {
  /** Inserts the moment and its media rows (positions in the order given). */
  create(moment: NewMoment): Promise<void>;
  /** The moment as `viewerId` sees it (counters, whether they like it), hidden or not; null when absent. */
  findById(id: string, viewerId: string): Promise<Moment | null>;
  /**
   * The feed of `viewerId`, newest first: moments not hidden (or the viewer's own), whose author
   * and the viewer do not block each other either way. A `before` that names no moment gives [].
   */
  listFeed(viewerId: string, page: Cursor): Promise<Moment[]>;
  /**
   * Records the user's like once; the like counter moves in the same statement, only when the
   * like is new (a repeated or parallel like from the same user counts once). Null: no moment.
   */
  like(id: string, userId: string, at: Date): Promise<MomentCounters | null>;
  /** Records the user's view once, with its counter, as `like` does. */
  view(id: string, userId: string, at: Date): Promise<MomentCounters | null>;
  /** Hides the moment from everyone but its author (moderation), or restores it. */
  setHidden(id: string, hidden: { by: string; at: Date } | null): Promise<void>;
  /**
   * Deletes every moment of the author (account deletion), with what belongs to them: their media
   * links, likes, views, comments and reports. The media assets themselves are the caller's.
   */
  deleteByAuthor(authorId: string): Promise<number>;
}

export type NewComment = {
  id: string;
  momentId: string;
  authorId: string;
  body: string;
  createdAt: Date;
  /** Set when a content filter holds it: visible to its author only until approved. */
  heldAt?: Date | null;
};

export interface CommentRepository {
  /** Inserts the comment and moves the moment's comment counter, in the caller's transaction. */
  create(comment: NewComment): Promise<void>;
  findById(id: string): Promise<Comment | null>;
  /** A moment's comments, newest first, without those whose author and the viewer block each other. */
  listForViewer(momentId: string, viewerId: string, page: Cursor): Promise<Comment[]>;
  /** Deletes every comment of the author (account deletion); each moment's counter follows. */
  deleteByAuthor(authorId: string): Promise<number>;
}

/** The moment routes' reports (SPEC), read and decided in the `reports` table (target_type moment). */
export interface ReportRepository {
  /**
   * The moderators' queue: oldest first, optionally of one status. Grouped by moment: one entry per
   * moment with undecided reports (open or reviewing, or of `status` when given), its oldest such
   * report with their count (`momentOpenReports`), ordered by that oldest report.
   */
  findPage(
    filter: { status?: ReportStatus | undefined; groupByMoment?: boolean | undefined },
    page: PageRequest,
  ): Promise<Page<ModeratedReport & { momentOpenReports?: number }>>;
  /**
   * Locks the moment `reportId` is about (for the rest of the transaction) before any of its
   * reports: decisions on reports of one moment then run one at a time, whichever report each
   * names. Nothing when the report does not exist.
   */
  lockMomentOf(reportId: string): Promise<void>;
  /** The report, locked for the rest of the transaction (one moderation at a time). */
  findByIdForUpdate(id: string): Promise<ModeratedReport | null>;
  /**
   * Closes every report of `momentId` still open or in review, as `change` says, in one statement;
   * resolves the reports it closed, each with the status it had (none twice: a report another
   * moderator closed first is left).
   */
  closeOpenOnMoment(
    momentId: string,
    change: {
      status: "resolved" | "dismissed";
      reviewerId: string;
      note: string | null;
      at: Date;
      /** The moderation action, kept in the report's `decision`. */
      decision: string;
    },
  ): Promise<(ModeratedReport & { previousStatus: ReportStatus })[]>;
  /**
   * Records a review step: the new status, who, and (when it closes the report) the note and the
   * resolution time.
   */
  review(
    id: string,
    change: {
      status: ReportStatus;
      reviewerId: string;
      note: string | null;
      at: Date;
      /** When it closes the report: the moderation action (`decision`); null for a status move. */
      decision?: string | null;
    },
  ): Promise<ModeratedReport>;
}

export type CommunityRepositories = {
  blocks: BlockRepository;
  moments: MomentRepository;
  comments: CommentRepository;
  reports: ReportRepository;
  targetReports: TargetReportRepository;
} & MediaRepositories &
  OwnContentRepositories;
