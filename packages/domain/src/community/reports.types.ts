import type { ReportReason, ReportStatus } from "./community.types";

/** What a member can report (docs/safety.md, "Reports"). */
export const reportTargetTypes = [
  "moment",
  "comment",
  "message",
  "user",
  "dating_profile",
  "listing",
  "meeting",
] as const;
export type ReportTargetType = (typeof reportTargetTypes)[number];

/** Why: the category a member picks when reporting anything. */
export const reportCategories = [
  "spam",
  "harassment",
  "hate",
  "sexual",
  "violence",
  "self_harm",
  "illegal",
  "impersonation",
  "scam",
  "other",
] as const;
export type ReportCategory = (typeof reportCategories)[number];

/** A moderator's decision on a target (reports.policy.ts: which apply to which target type). */
export const decisionActions = ["hide", "delete", "warn", "suspend", "dismiss", "approve"] as const;
export type DecisionAction = (typeof decisionActions)[number];

/** A report of any target, as moderators see it. */
export type TargetReport = {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  targetOwnerId: string | null;
  reporterId: string | null;
  source: "member" | "filter";
  category: ReportCategory;
  reason: ReportReason;
  note: string | null;
  snapshot: Record<string, unknown> | null;
  status: ReportStatus;
  decision: string | null;
  reviewerId: string | null;
  resolutionNote: string | null;
  reviewedAt: Date | null;
  resolvedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/** What the reporter can see of a target: its owner and what it was at report time (the snapshot). */
export type ReportableTarget = { ownerId: string | null; snapshot: Record<string, unknown> };

/** The target as it is now, for moderators: null when it is gone. */
export type TargetState = Record<string, unknown> & { owner_id: string | null };

/** One entry of the queue grouped by target. */
export type TargetGroup = {
  targetType: ReportTargetType;
  targetId: string;
  targetOwnerId: string | null;
  openReports: number;
  categories: Partial<Record<ReportCategory, number>>;
  oldestReportAt: Date;
  /** The target as it is now; null when it was deleted. */
  current: TargetState | null;
};

/** An earlier text of a moment or comment (content_edits), for moderators. */
export type ContentEdit = { id: string; authorId: string; body: string | null; editedAt: Date };

/** A chat message as moderators see it around a reported one. */
export type ContextMessage = {
  id: string;
  seq: number;
  senderId: string;
  body: string;
  messageType: string;
  createdAt: Date;
};

/** The moderator's view of one target. */
export type TargetView = {
  targetType: ReportTargetType;
  targetId: string;
  current: TargetState | null;
  reports: TargetReport[];
  edits: ContentEdit[];
  /** For a message: it and at most MESSAGE_CONTEXT_EACH_SIDE before and after it in its conversation. */
  messages: ContextMessage[] | null;
};
