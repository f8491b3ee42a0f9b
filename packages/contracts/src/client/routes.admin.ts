import { z } from "zod";
import {
  accountantServicesRequestSchema,
  accountantServicesSchema,
  adminCollectionQuerySchema,
  auditEventSchema,
  auditQuerySchema,
  overviewSchema,
  reportsSummarySchema,
} from "../administration";
import {
  moderatedReportSchema,
  moderateRequestSchema,
  reportStatusRequestSchema,
  reportsQuerySchema,
} from "../community.admin";
import { pageMetaSchema } from "../envelope";
import { userSchema, userStatusSchema } from "../identity";
import {
  adminAccountantSchema,
  adminUserSchema,
  changeRoleRequestSchema,
  changeUserStatusRequestSchema,
} from "../identity.admin";
import { announcementSchema } from "../lifestyle";
import { createAnnouncementRequestSchema } from "../lifestyle.admin";
import { listingSchema, providerSchema } from "../marketplace";
import {
  adminListingSchema,
  adminProviderSchema,
  adminServiceSchema,
  changeListingStatusRequestSchema,
} from "../marketplace.admin";
import { orderSchema, orderStatusSchema, transitionRequestSchema } from "../orders";
import { adminOrderSchema } from "../orders.admin";
import { paymentSchema, paymentStatusSchema } from "../payments";
import { adminPaymentSchema } from "../payments.admin";
import { route } from "./core";

/** `GET /admin/{kind}` for one kind: its item schema and the statuses its filter takes. */
const collection = <const P extends string, S extends z.ZodType<string>, I extends z.ZodType>(
  path: P,
  status: S,
  item: I,
) =>
  route({
    method: "GET",
    path,
    query: adminCollectionQuerySchema.extend({ status: status.optional() }),
    data: z.array(item),
    meta: pageMetaSchema,
  });

/** The admin surface (the admin app): the routes for administrators and accountants. */
export const adminRoutes = {
  overview: route({ method: "GET", path: "/admin/overview", data: overviewSchema }),
  audit: route({
    method: "GET",
    path: "/admin/audit",
    query: auditQuerySchema,
    data: z.array(auditEventSchema),
    meta: pageMetaSchema,
  }),
  /** Accountants and administrators: the 30-day summary in their scope. */
  reportsSummary: route({ method: "GET", path: "/reports/summary", data: reportsSummarySchema }),
  users: {
    list: collection("/admin/users", userStatusSchema, adminUserSchema),
    setStatus: route({
      method: "PATCH",
      path: "/admin/users/{id}/status",
      body: changeUserStatusRequestSchema,
      data: userSchema,
    }),
    setRole: route({
      method: "PATCH",
      path: "/admin/users/{id}/role",
      body: changeRoleRequestSchema,
      data: userSchema,
    }),
  },
  accountants: {
    list: collection("/admin/accountants", userStatusSchema, adminAccountantSchema),
    services: route({
      method: "GET",
      path: "/admin/accountants/{id}/services",
      data: accountantServicesSchema,
    }),
    setServices: route({
      method: "PUT",
      path: "/admin/accountants/{id}/services",
      body: accountantServicesRequestSchema,
      data: accountantServicesSchema,
    }),
  },
  services: {
    list: collection("/admin/services", z.enum(["active", "inactive"]), adminServiceSchema),
  },
  providers: {
    list: collection("/admin/providers", z.enum(["pending", "approved"]), adminProviderSchema),
    approve: route({ method: "POST", path: "/admin/providers/{id}/approve", data: providerSchema }),
  },
  listings: {
    list: collection(
      "/admin/listings",
      z.enum(["draft", "active", "inactive", "suspended"]),
      adminListingSchema,
    ),
    setStatus: route({
      method: "PATCH",
      path: "/admin/listings/{id}/status",
      body: changeListingStatusRequestSchema,
      data: listingSchema,
    }),
  },
  orders: {
    list: collection("/admin/orders", orderStatusSchema, adminOrderSchema),
    transition: route({
      method: "POST",
      path: "/admin/orders/{id}/transition",
      body: transitionRequestSchema,
      data: orderSchema,
    }),
  },
  payments: {
    list: collection("/admin/payments", paymentStatusSchema, adminPaymentSchema),
    reject: route({ method: "POST", path: "/admin/payments/{id}/reject", data: paymentSchema }),
  },
  community: {
    reports: route({
      method: "GET",
      path: "/admin/community/reports",
      query: reportsQuerySchema,
      data: z.array(moderatedReportSchema),
      meta: pageMetaSchema,
    }),
    moderate: route({
      method: "POST",
      path: "/admin/community/reports/{id}/moderate",
      body: moderateRequestSchema,
      data: moderatedReportSchema,
    }),
    setReportStatus: route({
      method: "POST",
      path: "/admin/community/reports/{id}/status",
      body: reportStatusRequestSchema,
      data: moderatedReportSchema,
    }),
    /** The moderation reports as CSV text. */
    exportReportsCsv: route({
      method: "GET",
      path: "/admin/exports/reports.csv",
      data: z.string(),
      text: true,
    }),
  },
  announcements: {
    create: route({
      method: "POST",
      path: "/admin/announcements",
      body: createAnnouncementRequestSchema,
      data: announcementSchema,
    }),
  },
} as const;
