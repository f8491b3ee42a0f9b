import { z } from "zod";
import {
  adminCollections,
  administrationOperations as administration,
  adminStatusChanges,
} from "../administration";
import { communityAdminOperations as community } from "../community.admin";
import { pageMetaSchema } from "../envelope";
import { identityAdminOperations as identity } from "../identity.admin";
import { lifestyleAdminOperations as lifestyle } from "../lifestyle.admin";
import { marketplaceAdminOperations as marketplace } from "../marketplace.admin";
import { moderationAdminOperations as moderation } from "../moderation.admin";
import { ordersAdminOperations as orders } from "../orders.admin";
import { paymentsAdminOperations as payments } from "../payments.admin";
import { reportsAdminOperations as reports } from "../reports.admin";

type Collections = typeof adminCollections;
type StatusChanges = typeof adminStatusChanges;

/** A `{kind}` path with the kind filled in. */
type KindPath<P extends string, K extends string> = P extends `${infer Head}{kind}${infer Tail}`
  ? `${Head}${K}${Tail}`
  : P;

const { adminCollectionList: collectionList, adminStatusUpdate: statusUpdate } = administration;

/** `GET /admin/{kind}` as one kind's operation: the kind's statuses in the query, its items in the page. */
type CollectionOperation<K extends keyof Collections> = Omit<
  typeof collectionList,
  "path" | "params" | "query" | "kinds" | "responses"
> & {
  readonly path: KindPath<typeof collectionList.path, K>;
  readonly query: ReturnType<
    typeof collectionList.query.extend<{ status: z.ZodOptional<Collections[K]["status"]> }>
  >;
  readonly responses: {
    readonly 200: {
      readonly description: string;
      readonly data: z.ZodArray<Collections[K]["item"]>;
      readonly meta: typeof pageMetaSchema;
    };
  };
};

/** `PATCH /admin/{kind}/{id}/status` as one kind's operation: the kind's body and answer. */
type StatusOperation<K extends keyof StatusChanges> = Omit<
  typeof statusUpdate,
  "path" | "params" | "body" | "kinds" | "responses"
> & {
  readonly path: KindPath<typeof statusUpdate.path, K>;
  readonly body: StatusChanges[K]["body"];
  readonly responses: {
    readonly 200: { readonly description: string; readonly data: StatusChanges[K]["data"] };
  };
};

const collection = <K extends keyof Collections>(kind: K): CollectionOperation<K> => {
  const { params: _params, kinds: _kinds, ...operation } = collectionList;
  const { status, item } = adminCollections[kind];

  return {
    ...operation,
    path: collectionList.path.replace("{kind}", kind),
    query: collectionList.query.extend({ status: status.optional() }),
    responses: { 200: { ...collectionList.responses[200], data: z.array(item), meta: pageMetaSchema } },
  } as CollectionOperation<K>;
};

const statusChange = <K extends keyof StatusChanges>(kind: K): StatusOperation<K> => {
  const { params: _params, kinds: _kinds, ...operation } = statusUpdate;
  const { body, data } = adminStatusChanges[kind];

  return {
    ...operation,
    path: statusUpdate.path.replace("{kind}", kind),
    body,
    responses: { 200: { ...statusUpdate.responses[200], data } },
  } as StatusOperation<K>;
};

/**
 * The admin surface (the admin app): the client's name for every operation for administrators
 * and accountants; each kind of the `{kind}` operations is a method of its own.
 */
export const adminRoutes = {
  overview: administration.adminOverview,
  audit: administration.adminAuditList,
  /** Accountants and administrators: the 30-day summary in their scope. */
  reportsSummary: administration.reportsSummary,
  users: {
    list: collection("users"),
    setStatus: statusChange("users"),
    setRole: identity.adminUsersRoleUpdate,
  },
  accountants: {
    list: collection("accountants"),
    services: administration.adminAccountantServicesGet,
    setServices: administration.adminAccountantServicesPut,
  },
  services: { list: collection("services") },
  providers: {
    list: collection("providers"),
    approve: marketplace.adminProvidersApprove,
  },
  listings: {
    list: collection("listings"),
    setStatus: statusChange("listings"),
  },
  orders: {
    list: collection("orders"),
    transition: orders.adminOrdersTransition,
  },
  payments: {
    list: collection("payments"),
    reject: payments.adminPaymentsReject,
  },
  community: {
    reports: community.adminReportsList,
    moderate: community.adminReportsModerate,
    setReportStatus: community.adminReportsStatusUpdate,
    /** Every target's reports (group_by=target), a target's view, and the decision on a target. */
    targetReports: reports.adminTargetReportsList,
    reportTarget: reports.adminReportTargetView,
    decideTarget: reports.adminReportTargetDecide,
    /** The moderation reports as CSV text. */
    exportReportsCsv: administration.adminReportsExportCsv,
  },
  announcements: { create: lifestyle.adminAnnouncementsCreate },
  filters: {
    list: moderation.adminFiltersList,
    create: moderation.adminFiltersCreate,
    update: moderation.adminFiltersUpdate,
    delete: moderation.adminFiltersDelete,
  },
} as const;
