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
  // Iterative: validated input can still be deep (records, arrays), and recursion has a limit.
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const next = stack.pop();
    if (next === undefined) {
      break;
    }
    const at = next.path.join(".") || (target === "json" ? "body" : target);
    if (typeof next.value === "string") {
      if (next.value.includes(NUL)) {
        issues.push({ path: at, message: "must not contain the NUL character (U+0000)" });
      } else if (LONE_SURROGATE.test(next.value)) {
        issues.push({
          path: at,
          message: "must be well-formed Unicode (a lone surrogate is not a character)",
        });
      }
      continue;
    }
    if (typeof next.value !== "object" || next.value === null) {
      continue;
    }
    for (const [key, inner] of Object.entries(next.value)) {
      if (key.includes(NUL) || LONE_SURROGATE.test(key)) {
        issues.push({ path: at, message: "must not have a key containing U+0000 or a lone surrogate" });
      }
      stack.push({ value: inner, path: [...next.path, key] });
    }
  }

  return issues;
};
