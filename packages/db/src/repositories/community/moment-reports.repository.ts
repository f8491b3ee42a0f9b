import type { ReportRepository } from "@agora/domain/community/community.ports";
import type { MomentReport, ReportReason, ReportStatus } from "@agora/domain/community/community.types";
import type { MomentReport as MomentReportModel, PrismaClient } from "../../generated/prisma/client";

const toReport = (row: MomentReportModel): MomentReport => ({
  id: row.id,
  momentId: row.momentId,
  reporterId: row.reporterId,
  reason: row.reason as ReportReason,
  note: row.note,
  status: row.status as ReportStatus,
  createdAt: row.createdAt,
});

const openStatuses: ReportStatus[] = ["open", "reviewing"];

/** Reports through Prisma (not a hot path); one open per reporter and moment by a partial unique index. */
export const createReportRepository = (prisma: PrismaClient): ReportRepository => ({
  async create(report) {
    // A moderator may close the open report between the insert that it blocked and the read: try again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { count } = await prisma.momentReport.createMany({
        data: [{ ...report, status: "open", updatedAt: report.createdAt }],
        skipDuplicates: true,
      });
      if (count === 1) {
        const created = await prisma.momentReport.findUniqueOrThrow({ where: { id: report.id } });

        return { outcome: "created", report: toReport(created) };
      }
      const open = await prisma.momentReport.findFirst({
        where: { momentId: report.momentId, reporterId: report.reporterId, status: { in: openStatuses } },
      });
      if (open) {
        return { outcome: "open_exists", report: toReport(open) };
      }
    }
    throw new Error("moment report: the open report kept changing");
  },
});
