import type { CommentDto, MomentCountersDto, MomentDto, MomentReportDto } from "@agora/contracts/community";
import type { ModeratedReportDto } from "@agora/contracts/community.admin";
import type {
  Comment,
  ModeratedReport,
  Moment,
  MomentCounters,
  MomentReport,
  UserSummary,
} from "@agora/domain/community/community.types";

export const toUserSummaryDto = (user: UserSummary) => ({
  id: user.id,
  username: user.username,
  display_name: user.displayName,
});

export const toCountersDto = (counters: MomentCounters): MomentCountersDto => ({
  likes: counters.likes,
  views: counters.views,
  comments: counters.comments,
});

export const toMomentDto = (moment: Moment): MomentDto => ({
  id: moment.id,
  author: toUserSummaryDto(moment.author),
  body: moment.body,
  visibility: moment.visibility,
  media_asset_ids: moment.mediaAssetIds,
  counters: toCountersDto(moment.counters),
  liked_by_me: moment.likedByViewer,
  hidden: moment.hidden,
  created_at: moment.createdAt.toISOString(),
  edited_at: moment.editedAt?.toISOString() ?? null,
});

export const toCommentDto = (comment: Comment): CommentDto => ({
  id: comment.id,
  moment_id: comment.momentId,
  author: toUserSummaryDto(comment.author),
  body: comment.body,
  created_at: comment.createdAt.toISOString(),
  edited_at: comment.editedAt?.toISOString() ?? null,
});

export const toReportDto = (report: MomentReport): MomentReportDto => ({
  id: report.id,
  moment_id: report.momentId,
  reason: report.reason,
  note: report.note,
  status: report.status,
  created_at: report.createdAt.toISOString(),
});

/** A page of a newest-first list: `next_before` is the last item's id when the page is full. */
export const cursorMeta = (items: readonly { id: string }[], limit: number) => ({
  limit,
  next_before: items.length === limit ? (items[items.length - 1]?.id ?? null) : null,
});

export const toModeratedReportDto = (
  report: ModeratedReport & { momentOpenReports?: number },
): ModeratedReportDto => ({
  ...toReportDto(report),
  reporter_id: report.reporterId,
  moment_author_id: report.momentAuthorId,
  moment_hidden: report.momentHidden,
  moment_deleted: report.momentDeleted,
  reviewer_id: report.reviewerId,
  resolution_note: report.resolutionNote,
  reviewed_at: report.reviewedAt?.toISOString() ?? null,
  resolved_at: report.resolvedAt?.toISOString() ?? null,
  updated_at: report.updatedAt.toISOString(),
  ...(report.momentOpenReports === undefined ? {} : { moment_open_reports: report.momentOpenReports }),
});
