import type { Role } from "../common/actor";
import type { UserStatus } from "../identity/identity.types";
import type { ModerationAction, ReportStatus } from "./community.types";

/** Who moderates (moves reports, decides them): administrators; any other role is 403. */
export const MODERATOR_ROLES: readonly Role[] = ["admin"];

/**
 * The moves of a report by status (the table in docs/areas.md, "Administration, moderation and
 * reporting"): a moderator takes an open report in review or dismisses it; a report in review goes
 * back to open, is dismissed, or is resolved; resolved and dismissed are final (the reporter may
 * file a new report).
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

/** A closing status: the reporter is told the outcome when a report reaches one. */
export const isReportClosed = (status: ReportStatus): status is "resolved" | "dismissed" =>
  status === "resolved" || status === "dismissed";

/** What a moderation decision does: the report's closing status, and what happens to the moment and its author. */
export type ModerationOutcome = {
  report: "resolved" | "dismissed";
  /** The moment's new hidden state; null when the action leaves it as it is. */
  momentHidden: boolean | null;
  suspendAuthor: boolean;
};

/**
 * The outcome of each action on an open report (isReportOpen; a closed one is 422): `hide_moment`
 * and `restore_moment` set the moment's hidden state, `suspend_user` suspends its author, and each
 * resolves the report; `none` dismisses it and changes nothing else.
 */
export const moderationOutcome = (action: ModerationAction): ModerationOutcome => {
  switch (action) {
    case "hide_moment":
      return { report: "resolved", momentHidden: true, suspendAuthor: false };
    case "restore_moment":
      return { report: "resolved", momentHidden: false, suspendAuthor: false };
    case "suspend_user":
      return { report: "resolved", momentHidden: null, suspendAuthor: true };
    case "none":
      return { report: "dismissed", momentHidden: null, suspendAuthor: false };
    default: {
      const unknown: never = action;
      throw new Error(`unknown moderation action ${String(unknown)}`);
    }
  }
};

/**
 * Whether `action` settles the moment itself, not only the report: hiding it or suspending its
 * author answers every report on it, so deciding one report with it closes all the open ones.
 * Restoring the moment or dismissing one report (`none`) decides that report alone.
 */
export const settlesMoment = (action: ModerationAction): boolean =>
  action === "hide_moment" || action === "suspend_user";

/**
 * Whether suspending the author changes their account: a deleted author stays deleted, and an
 * author already suspended is left as is (no second audit event); anyone else is suspended.
 */
export const suspensionApplies = (authorStatus: UserStatus): boolean =>
  authorStatus !== "deleted" && authorStatus !== "suspended";
