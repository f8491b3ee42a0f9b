import type { Page, PageRequest } from "../common/page";
import type {
  AuditEvent,
  AuditFilter,
  Overview,
  ReportExportRow,
  ReportsSummary,
} from "./administration.types";

/** Which services an accountant is assigned to (reports and order reads are limited to them). */
export interface AccountantServiceRepository {
  /** The assigned services, by name. */
  findServices(accountantId: string): Promise<Array<{ id: string; name: string }>>;
  /** The assigned service ids of each of `accountantIds` (an accountant with none is absent). */
  findServiceIdsByAccountants(accountantIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Replaces the set (in the caller's transaction). */
  replace(accountantId: string, serviceIds: readonly string[], at: Date): Promise<void>;
  /** Whether the listing belongs to a service the accountant is assigned to. */
  coversListing(accountantId: string, listingId: string): Promise<boolean>;
}

export interface AuditReader {
  /** Events matching every given filter, newest first. */
  findPage(filter: AuditFilter, page: PageRequest): Promise<Page<AuditEvent>>;
}

export interface ReportsReadModel {
  /** The summary over [from, to), limited to `serviceIds` (null: every service). */
  summary(window: { from: Date; to: Date }, serviceIds: readonly string[] | null): Promise<ReportsSummary>;
}

export interface OverviewReadModel {
  /** The totals, now, in one statement. */
  /** The totals now; `overdueBefore`: an undecided report filed before it is overdue. */
  overview(options: { overdueBefore: Date }): Promise<Overview>;
}

export interface ReportExportSource {
  /**
   * Every moderation report, oldest first, in batches of `batchSize` read one after the other
   * (keyset over created_at and id): memory stays flat and no transaction stays open while a slow
   * client downloads.
   */
  batches(batchSize: number): AsyncIterable<ReportExportRow[]>;
}

export type AdministrationRepositories = {
  accountantServices: AccountantServiceRepository;
  auditEvents: AuditReader;
  reportsSummary: ReportsReadModel;
  overview: OverviewReadModel;
  reportExport: ReportExportSource;
};
