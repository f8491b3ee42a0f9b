import { describe, expect, it } from "vitest";
import { AppError } from "../common/app-error";
import {
  commentVisibleToOthers,
  editedMomentBody,
  mayChangeComment,
  mayChangeMoment,
} from "./own-content.policy";

describe("who changes a moment", () => {
  it.each([
    { isAuthor: true, allowed: true },
    { isAuthor: false, allowed: false },
  ])("author $isAuthor: $allowed", ({ isAuthor, allowed }) => {
    expect(mayChangeMoment({ isAuthor })).toBe(allowed);
  });
});

describe("who changes a comment", () => {
  it.each([
    { change: "edit", isAuthor: true, isMomentAuthor: false, allowed: true },
    { change: "edit", isAuthor: false, isMomentAuthor: true, allowed: false },
    { change: "edit", isAuthor: false, isMomentAuthor: false, allowed: false },
    { change: "delete", isAuthor: true, isMomentAuthor: false, allowed: true },
    { change: "delete", isAuthor: false, isMomentAuthor: true, allowed: true },
    { change: "delete", isAuthor: true, isMomentAuthor: true, allowed: true },
    { change: "delete", isAuthor: false, isMomentAuthor: false, allowed: false },
  ] as const)("$change by author $isAuthor, moment's author $isMomentAuthor: $allowed", (row) => {
    expect(mayChangeComment(row.change, row)).toBe(row.allowed);
  });
});

describe("a comment seen by others", () => {
  it.each([
    { authorPresent: true, blockedEitherWay: false, visible: true },
    { authorPresent: false, blockedEitherWay: false, visible: false },
    { authorPresent: true, blockedEitherWay: true, visible: false },
    { authorPresent: false, blockedEitherWay: true, visible: false },
  ])("present $authorPresent, blocked $blockedEitherWay: $visible", ({ visible, ...facts }) => {
    expect(commentVisibleToOthers(facts)).toBe(visible);
  });
});

describe("a moment's text after an edit", () => {
  it("keeps text as given", () => {
    expect(editedMomentBody(" new words ", 0)).toBe(" new words ");
  });
  it("makes blank text null when the moment has media", () => {
    expect(editedMomentBody("   ", 2)).toBeNull();
    expect(editedMomentBody("", 1)).toBeNull();
  });
  it("refuses blank text on a moment without media (422 on body)", () => {
    const refusal = (() => {
      try {
        editedMomentBody(" \n ", 0);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: "validation_failed", details: [{ path: "body" }] });
  });
});
