import { describe, expect, it } from "vitest";
import { unstorableTextIssues } from "./storable-text";

describe("unstorableTextIssues", () => {
  it("finds nothing in storable input, however deep", () => {
    expect(unstorableTextIssues({ items: [{ name: "tea", tags: ["a", "b"] }], note: null }, "json")).toEqual(
      [],
    );
  });

  it("names a nested field as validation issues do, and the target for a value at the root", () => {
    const issues = unstorableTextIssues({ items: [{ name: "ok" }, { name: "x\u0000" }] }, "json");
    expect(issues.map((issue) => issue.path)).toEqual(["items.1.name"]);
    expect(unstorableTextIssues("\udfff", "json").map((issue) => issue.path)).toEqual(["body"]);
    expect(unstorableTextIssues("a\u0000", "query").map((issue) => issue.path)).toEqual(["query"]);
  });

  it("names the object that holds an unstorable key, and keeps a surrogate pair", () => {
    const issues = unstorableTextIssues({ meta: { "k\u0000": 1 }, emoji: "\ud83d\ude00" }, "json");
    expect(issues).toEqual([
      { path: "meta", message: "must not have a key containing U+0000 or a lone surrogate" },
    ]);
  });

  it("stops at ten issues", () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, "\u0000"]));
    expect(unstorableTextIssues(many, "json")).toHaveLength(10);
  });
});
