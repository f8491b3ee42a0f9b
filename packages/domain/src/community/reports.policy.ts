import type { ReportReason } from "./community.types";
import type { HoldableTarget } from "./reports.ports";
import type { DecisionAction, ReportCategory, ReportTargetType } from "./reports.types";

/** A reported message's context: this many messages before it and after it (10 around it at most). */
export const MESSAGE_CONTEXT_EACH_SIDE = 5;

/**
 * The decisions a moderator may take on each target type (docs/safety.md, "Reports"); any other is
 * 422 validation_failed on `action`. `approve` releases content a filter held (held_at), where the
 * target has that column; users and meetings are never held.
 */
export const actionsByTarget: Record<ReportTargetType, readonly DecisionAction[]> = {
  moment: ["hide", "delete", "warn", "suspend", "dismiss", "approve"],
  comment: ["delete", "warn", "suspend", "dismiss", "approve"],
  message: ["delete", "warn", "suspend", "dismiss", "approve"],
  user: ["warn", "suspend", "dismiss"],
  dating_profile: ["hide", "delete", "warn", "suspend", "dismiss", "approve"],
  listing: ["hide", "warn", "suspend", "dismiss", "approve"],
  meeting: ["delete", "warn", "suspend", "dismiss"],
};

export const actionAllowed = (type: ReportTargetType, action: DecisionAction): boolean =>
  actionsByTarget[type].includes(action);

/** Whether a filter rule can hold a target of this type (its row has `held_at`). */
export const isHoldable = (type: ReportTargetType): type is HoldableTarget =>
  type === "moment" ||
  type === "comment" ||
  type === "message" ||
  type === "dating_profile" ||
  type === "listing";

/** The status a decision closes the target's reports with: dismissed for `dismiss`, resolved otherwise. */
export const closingStatus = (action: DecisionAction): "resolved" | "dismissed" =>
  action === "dismiss" ? "dismissed" : "resolved";

/** The moment route's `reason` as a category: abuse is harassment, the others keep their name. */
export const categoryOfReason = (reason: ReportReason): ReportCategory =>
  reason === "abuse" ? "harassment" : reason;

/**
 * The `reason` column of a report filed by category (kept for the moment route's readers): spam,
 * illegal and other keep their name; harm to people (harassment, hate, sexual, violence,
 * self_harm) is abuse; impersonation and scam are other.
 */
export const reasonOfCategory = (category: ReportCategory): ReportReason => {
  switch (category) {
    case "spam":
    case "illegal":
    case "other":
      return category;
    case "harassment":
    case "hate":
    case "sexual":
    case "violence":
    case "self_harm":
      return "abuse";
    case "impersonation":
    case "scam":
      return "other";
    default: {
      const unknown: never = category;
      throw new Error(`unknown report category ${String(unknown)}`);
    }
  }
};
