import { describe, expect, it } from "vitest";
import { roles } from "../common/actor";
import { userStatuses } from "../identity/identity.types";
import { moderationActions, type ReportStatus, reportStatuses } from "./community.types";
import {
  canMoveReport,
  isReportClosed,
  isReportOpen,
  MODERATOR_ROLES,
  moderationOutcome,
  settlesMoment,
  suspensionApplies,
} from "./moderation.policy";

/** The report moves, written out as the table in docs/areas.md states them. */
const allowed: [ReportStatus, ReportStatus][] = [
  ["open", "reviewing"],
  ["open", "dismissed"],
  ["reviewing", "open"],
  ["reviewing", "resolved"],
  ["reviewing", "dismissed"],
];

describe("report moves (POST …/reports/{id}/status)", () => {
  const cases = reportStatuses.flatMap((from) =>
    reportStatuses.map((to) => ({
      from,
      to,
      allowed: allowed.some(([f, t]) => f === from && t === to),
    })),
  );

  it.each(cases)("$from → $to: allowed $allowed", ({ from, to, allowed: expected }) => {
    expect(canMoveReport(from, to)).toBe(expected);
  });

  it("keeps resolved and dismissed final, and tells the reporter when a report reaches one of them", () => {
    for (const to of reportStatuses) {
      expect(canMoveReport("resolved", to)).toBe(false);
      expect(canMoveReport("dismissed", to)).toBe(false);
    }
    expect(reportStatuses.filter(isReportClosed)).toEqual(["resolved", "dismissed"]);
  });
});

describe("moderation decisions (POST …/reports/{id}/moderate)", () => {
  it.each(reportStatuses.map((status) => ({ status, open: status === "open" || status === "reviewing" })))(
    "a $status report may be decided: $open",
    ({ status, open }) => {
      expect(isReportOpen(status)).toBe(open);
    },
  );

  it.each([
    ["hide_moment", { report: "resolved", momentHidden: true, suspendAuthor: false }],
    ["restore_moment", { report: "resolved", momentHidden: false, suspendAuthor: false }],
    ["suspend_user", { report: "resolved", momentHidden: null, suspendAuthor: true }],
    ["none", { report: "dismissed", momentHidden: null, suspendAuthor: false }],
  ] as const)("%s: %o", (action, outcome) => {
    expect(moderationOutcome(action)).toEqual(outcome);
  });

  it("has an outcome for every action, each closing the report", () => {
    for (const action of moderationActions) {
      expect(isReportClosed(moderationOutcome(action).report)).toBe(true);
    }
  });

  it.each(
    userStatuses.map((status) => ({
      status,
      suspends: status === "active" || status === "pending_verification",
    })),
  )("suspending an author whose account is $status changes it: $suspends", ({ status, suspends }) => {
    expect(suspensionApplies(status)).toBe(suspends);
  });

  it.each(
    moderationActions.map((action) => ({
      action,
      settles: action === "hide_moment" || action === "suspend_user",
    })),
  )("$action settles the moment (closes every open report on it): $settles", ({ action, settles }) => {
    expect(settlesMoment(action)).toBe(settles);
  });

  it.each(roles.map((role) => ({ role, moderates: role === "admin" })))(
    "a $role moderates: $moderates",
    ({ role, moderates }) => {
      expect(MODERATOR_ROLES.includes(role)).toBe(moderates);
    },
  );
});
