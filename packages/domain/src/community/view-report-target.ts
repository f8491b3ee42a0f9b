import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { CommunityDeps } from "./community.deps";
import { MODERATOR_ROLES } from "./moderation.policy";
import { MESSAGE_CONTEXT_EACH_SIDE } from "./reports.policy";
import type { ReportTargetType, TargetView } from "./reports.types";

/**
 * A reported target as moderators see it (administrators): the target now (null when it is gone),
 * every report on it with its snapshot, the earlier texts of a moment or comment, and for a
 * message that message with at most MESSAGE_CONTEXT_EACH_SIDE before and after it in its
 * conversation, nothing more. 404 when the target has no report at all.
 */
export const viewReportTarget = async (
  { repos }: Pick<CommunityDeps, "repos">,
  actor: Actor,
  target: { type: ReportTargetType; id: string },
): Promise<TargetView> => {
  requireRole(actor, ...MODERATOR_ROLES);
  const reports = await repos.targetReports.findOnTarget(target.type, target.id);
  if (reports.length === 0) {
    throw new NotFoundError("Reported target");
  }
  const [current, edits, messages] = await Promise.all([
    repos.targetReports.findCurrent(target.type, target.id),
    target.type === "moment" || target.type === "comment"
      ? repos.targetReports.findEdits(target.type, target.id)
      : Promise.resolve([]),
    target.type === "message"
      ? repos.targetReports.findMessageContext(target.id, MESSAGE_CONTEXT_EACH_SIDE)
      : Promise.resolve(null),
  ]);

  return { targetType: target.type, targetId: target.id, current, reports, edits, messages };
};
