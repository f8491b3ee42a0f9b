import { describe, expect, it } from "vitest";
import {
  actionAllowed,
  actionsByTarget,
  categoryOfReason,
  closingStatus,
  isHoldable,
  reasonOfCategory,
} from "./reports.policy";
import { reportCategories, reportTargetTypes } from "./reports.types";

describe("the decisions per target type", () => {
  it("lets every target be warned about, suspended over and dismissed; hides only what has a hidden state", () => {
    for (const type of reportTargetTypes) {
      expect(actionAllowed(type, "warn")).toBe(true);
      expect(actionAllowed(type, "suspend")).toBe(true);
      expect(actionAllowed(type, "dismiss")).toBe(true);
    }
    expect(reportTargetTypes.filter((type) => actionAllowed(type, "hide"))).toEqual([
      "moment",
      "dating_profile",
      "listing",
    ]);
    expect(actionAllowed("user", "delete")).toBe(false);
    expect(actionAllowed("listing", "delete")).toBe(false);
  });

  it("approves only what a filter can hold", () => {
    for (const type of reportTargetTypes) {
      expect(actionAllowed(type, "approve")).toBe(isHoldable(type));
    }
    expect(isHoldable("user")).toBe(false);
    expect(isHoldable("meeting")).toBe(false);
  });

  it("dismisses for dismiss and resolves for every other action", () => {
    const actions = new Set(Object.values(actionsByTarget).flat());
    for (const action of actions) {
      expect(closingStatus(action)).toBe(action === "dismiss" ? "dismissed" : "resolved");
    }
  });
});

describe("reason and category", () => {
  it("maps the moment route's reason to a category and back", () => {
    expect(categoryOfReason("abuse")).toBe("harassment");
    for (const reason of ["spam", "illegal", "other"] as const) {
      expect(categoryOfReason(reason)).toBe(reason);
      expect(reasonOfCategory(categoryOfReason(reason))).toBe(reason);
    }
    expect(reasonOfCategory("harassment")).toBe("abuse");
  });

  it("gives every category a reason of the old column", () => {
    expect(reportCategories.map(reasonOfCategory)).toEqual([
      "spam",
      "abuse",
      "abuse",
      "abuse",
      "abuse",
      "abuse",
      "illegal",
      "other",
      "other",
      "other",
    ]);
  });
});
