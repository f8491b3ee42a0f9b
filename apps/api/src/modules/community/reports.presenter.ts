import type { ReportDto } from "@agora/contracts/reports";
import type {
  DecisionDto,
  ReportedTargetDto,
  ReportTargetViewDto,
  TargetReportDto,
} from "@agora/contracts/reports.admin";
import type {
  DecisionAction,
  TargetGroup,
  TargetReport,
  TargetView,
} from "@agora/domain/community/reports.types";

export const toReportDto = (report: TargetReport): ReportDto => ({
  id: report.id,
  target_type: report.targetType,
  target_id: report.targetId,
  category: report.category,
  reason: report.reason,
  note: report.note,
  status: report.status,
  created_at: report.createdAt.toISOString(),
});

export const toTargetReportDto = (report: TargetReport): TargetReportDto => ({
  ...toReportDto(report),
  target_owner_id: report.targetOwnerId,
  reporter_id: report.reporterId,
  source: report.source,
  snapshot: report.snapshot as TargetReportDto["snapshot"],
  decision: report.decision,
  reviewer_id: report.reviewerId,
  resolution_note: report.resolutionNote,
  reviewed_at: report.reviewedAt?.toISOString() ?? null,
  resolved_at: report.resolvedAt?.toISOString() ?? null,
  updated_at: report.updatedAt.toISOString(),
});

export const toReportedTargetDto = (group: TargetGroup): ReportedTargetDto => ({
  target_type: group.targetType,
  target_id: group.targetId,
  target_owner_id: group.targetOwnerId,
  open_reports: group.openReports,
  categories: group.categories,
  oldest_report_at: group.oldestReportAt.toISOString(),
  deleted: group.current === null,
  current: group.current as ReportedTargetDto["current"],
});

export const toTargetViewDto = (view: TargetView): ReportTargetViewDto => ({
  target_type: view.targetType,
  target_id: view.targetId,
  deleted: view.current === null,
  current: view.current as ReportTargetViewDto["current"],
  reports: view.reports.map(toTargetReportDto),
  edits: view.edits.map((edit) => ({
    id: edit.id,
    author_id: edit.authorId,
    body: edit.body,
    edited_at: edit.editedAt.toISOString(),
  })),
  messages:
    view.messages?.map((message) => ({
      id: message.id,
      seq: message.seq,
      sender_id: message.senderId,
      body: message.body,
      message_type: message.messageType,
      created_at: message.createdAt.toISOString(),
    })) ?? null,
});

export const toDecisionDto = (
  target: { type: TargetReport["targetType"]; id: string },
  action: DecisionAction,
  closed: TargetReport[],
): DecisionDto => ({
  target_type: target.type,
  target_id: target.id,
  action,
  closed: closed.map(toTargetReportDto),
});
