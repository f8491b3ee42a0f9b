/** Who wrote a moment or a comment, as other users see them. */
export type UserSummary = { id: string; username: string; displayName: string };

export type MomentCounters = { likes: number; views: number; comments: number };

/** A moment as one viewer sees it. */
export type Moment = {
  id: string;
  author: UserSummary;
  body: string | null;
  visibility: "public";
  /** In the order given at creation (at most 5). */
  mediaAssetIds: string[];
  counters: MomentCounters;
  /** Whether the viewer likes it. */
  likedByViewer: boolean;
  /** Hidden by moderation: only its author still sees it. */
  hidden: boolean;
  /** Held by a content filter until a moderator approves it: only its author sees it. */
  held: boolean;
  /**
   * The author is present (authorPresent: the account is active); a suspended or deleted author's
   * moments are hidden from others.
   */
  authorActive: boolean;
  createdAt: Date;
  /** The author's last edit (null: never edited). */
  editedAt: Date | null;
};

export type Comment = {
  id: string;
  momentId: string;
  author: UserSummary;
  body: string;
  createdAt: Date;
  /** The author's last edit (null: never edited). */
  editedAt: Date | null;
};

export const reportReasons = ["spam", "abuse", "illegal", "other"] as const;
export type ReportReason = (typeof reportReasons)[number];

/** Report statuses (docs/areas.md). open and reviewing count as open: one per reporter and moment. */
export const reportStatuses = ["open", "reviewing", "resolved", "dismissed"] as const;
export type ReportStatus = (typeof reportStatuses)[number];

export type MomentReport = {
  id: string;
  momentId: string;
  reporterId: string;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  createdAt: Date;
};

export const moderationActions = ["hide_moment", "restore_moment", "suspend_user", "none"] as const;
export type ModerationAction = (typeof moderationActions)[number];

/** A report as moderators see it: with the review so far and the reported moment's state. */
export type ModeratedReport = MomentReport & {
  momentAuthorId: string;
  momentHidden: boolean;
  /** The moment was deleted (by its author or a moderator); its reports stay. */
  momentDeleted: boolean;
  reviewerId: string | null;
  resolutionNote: string | null;
  reviewedAt: Date | null;
  resolvedAt: Date | null;
  updatedAt: Date;
};

/** The feed answers the 50 newest moments a caller may see. */
export const FEED_PAGE_SIZE = 50;
