import type { FieldIssue } from "@agora/contracts/errors";

const NUL = "\u0000";
// A UTF-16 surrogate that is not half of a pair: not a character, so it has no UTF-8 form. The pg
// driver would silently store U+FFFD instead, and Prisma's engine refuses the string (a 500).
const LONE_SURROGATE = /\p{Cs}/u;
const MAX_ISSUES = 10;

/**
 * Where validated input holds text PostgreSQL cannot store: U+0000 (NUL), which `text` refuses
 * (error 22021) and `jsonb` too (22P05), and lone surrogates (ill-formed UTF-16, e.g. the JSON
 * escape `"\udfff"` alone), which have no UTF-8 form. Every string and object key is checked, at any depth,
 * so the rule holds for every field of every route, present and future, without a schema of its
 * own. Paths are named as validation issues are (`display_name`, `items.0.name`, `id`, `q`).
 */
export const unstorableTextIssues = (value: unknown, target: string): FieldIssue[] => {
  const issues: FieldIssue[] = [];
  // Iterative: validated input can still be deep (records, arrays), and recursion has a limit. A
  // node's path is kept as its parent's node and key, and spelled out only for an issue: valid
  // input (nearly all of it) allocates no path strings.
  type Node = { value: unknown; parent: Node | undefined; key: string };
  const pathOf = (node: Node): string => {
    const keys: string[] = [];
    for (let at: Node | undefined = node; at?.parent !== undefined; at = at.parent) {
      keys.push(at.key);
    }

    return keys.length > 0 ? keys.reverse().join(".") : target === "json" ? "body" : target;
  };
  const stack: Node[] = [{ value, parent: undefined, key: "" }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const next = stack.pop();
    if (next === undefined) {
      break;
    }
    if (typeof next.value === "string") {
      if (next.value.includes(NUL)) {
        issues.push({ path: pathOf(next), message: "must not contain the NUL character (U+0000)" });
      } else if (LONE_SURROGATE.test(next.value)) {
        issues.push({
          path: pathOf(next),
          message: "must be well-formed Unicode (a lone surrogate is not a character)",
        });
      }
      continue;
    }
    if (typeof next.value !== "object" || next.value === null) {
      continue;
    }
    for (const key of Object.keys(next.value)) {
      if (key.includes(NUL) || LONE_SURROGATE.test(key)) {
        issues.push({
          path: pathOf(next),
          message: "must not have a key containing U+0000 or a lone surrogate",
        });
      }
      stack.push({ value: (next.value as Record<string, unknown>)[key], parent: next, key });
    }
  }

  return issues;
};
