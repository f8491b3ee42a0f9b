import type { ReportStatus } from "./community.types";

/**
 * The moves of a report (CONTRACT.md §4 names the statuses; the moves are ours): a moderator takes
 * an open report in review or dismisses it; a report in review goes back to open, is dismissed, or
 * is resolved; resolved and dismissed are final (the reporter may file a new report).
 */
const moves: Record<ReportStatus, readonly ReportStatus[]> = {
  open: ["reviewing", "dismissed"],
  reviewing: ["open", "resolved", "dismissed"],
  resolved: [],
  dismissed: [],
};

export const canMoveReport = (from: ReportStatus, to: ReportStatus): boolean => moves[from].includes(to);

/** A report a moderation decision may still close: open or in review. */
export const isReportOpen = (status: ReportStatus): boolean => status === "open" || status === "reviewing";
