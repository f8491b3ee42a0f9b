// The content filter's matcher (docs/safety.md, "Filters"): pure functions, no I/O. A rule's value is
// normalized once when it is saved; a text is normalized once per check, then looked up in Sets, so
// a check costs O(text length × longest phrase) whatever the number of rules. No rule is a regular
// expression: values are compared as normalized tokens and host names.

export const filterMatches = ["word", "phrase", "domain"] as const;
export type FilterMatch = (typeof filterMatches)[number];

export const filterActions = ["block", "hold", "flag"] as const;
export type FilterAction = (typeof filterActions)[number];

export const filterContexts = [
  "moments",
  "comments",
  "messages",
  "profiles",
  "dating_profiles",
  "listings",
] as const;
export type FilterContext = (typeof filterContexts)[number];

/** The most tokens a phrase rule may have (and so the longest n-gram a check looks up). */
export const MAX_PHRASE_TOKENS = 8;

/** What the matcher needs of a rule. */
export type FilterRule = {
  id: string;
  match: FilterMatch;
  /** As the administrator gave it (a report's note names it). */
  value: string;
  normalizedValue: string;
  action: FilterAction;
  contexts: readonly FilterContext[];
};

/** Letters and symbols commonly written for another letter (leetspeak and look-alikes). */
const SUBSTITUTIONS: Readonly<Record<string, string>> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "@": "a",
  $: "s",
  "!": "i",
  "|": "l",
  "€": "e",
  // Letters NFKD leaves whole.
  ø: "o",
  ł: "l",
  đ: "d",
  ħ: "h",
  ı: "i",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  þ: "th",
};

/** Symbols that stand for a letter inside a word but are punctuation at its edges (`scam!`). */
const EDGE_PUNCTUATION = new Set(["!", "|"]);

const COMBINING_MARKS = /\p{M}+/gu;

/** Unicode NFKD, combining marks removed, lower case: `ŠCÁM` → `scam`, `ｅｘａｍｐｌｅ` → `example`. */
export const foldText = (text: string): string =>
  text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();

const isLetterOrDigit = (char: string): boolean => /[\p{L}\p{N}]/u.test(char);
const isTokenChar = (char: string): boolean => isLetterOrDigit(char) || char in SUBSTITUTIONS;

/**
 * The normalized word tokens of `text`: folded (foldText), split on anything but letters, digits
 * and the substituted symbols, common substitutions mapped (`sc4m` → `scam`, `$c@m` → `scam`).
 * `!` and `|` at a word's edges are punctuation, not letters.
 */
export const tokenize = (text: string): string[] => {
  const folded = foldText(text);
  const tokens: string[] = [];
  let raw = "";
  const flush = () => {
    let start = 0;
    let end = raw.length;
    while (start < end && EDGE_PUNCTUATION.has(raw.charAt(start))) {
      start += 1;
    }
    while (end > start && EDGE_PUNCTUATION.has(raw.charAt(end - 1))) {
      end -= 1;
    }
    if (end > start) {
      let token = "";
      for (const char of raw.slice(start, end)) {
        token += SUBSTITUTIONS[char] ?? char;
      }
      tokens.push(token);
    }
    raw = "";
  };
  for (const char of folded) {
    if (isTokenChar(char)) {
      raw += char;
    } else if (raw) {
      flush();
    }
  }
  if (raw) {
    flush();
  }

  return tokens;
};

const HOST_CHAR = /[a-z0-9.-]/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const TOP_LABEL = /^[a-z]{2,63}$/;

/** `text` as a host name (`example.com`, `a.b.example.org`), or null. Anchored, linear patterns only. */
const asHost = (candidate: string): string | null => {
  let host = candidate;
  while (host.startsWith(".") || host.startsWith("-")) {
    host = host.slice(1);
  }
  while (host.endsWith(".") || host.endsWith("-")) {
    host = host.slice(0, -1);
  }
  if (host.length === 0 || host.length > 253) {
    return null;
  }
  const labels = host.split(".");
  if (labels.length < 2 || !TOP_LABEL.test(labels.at(-1) ?? "")) {
    return null;
  }
  for (const label of labels) {
    if (label.length > 63 || !LABEL.test(label)) {
      return null;
    }
  }

  return host;
};

/**
 * The host names in `text` (`see https://www.Example.com/x` → `www.example.com`): one pass over
 * the folded text collecting runs of host characters, each checked as a host name. No user pattern.
 */
export const extractHosts = (text: string): string[] => {
  const folded = foldText(text);
  const hosts: string[] = [];
  let run = "";
  const flush = () => {
    const host = run.includes(".") ? asHost(run) : null;
    if (host) {
      hosts.push(host);
    }
    run = "";
  };
  for (const char of folded) {
    if (HOST_CHAR.test(char)) {
      run += char;
    } else if (run) {
      flush();
    }
  }
  if (run) {
    flush();
  }

  return hosts;
};

/** Why a rule's value cannot be saved (the field is `value`). */
export type RuleValueProblem = string;

/**
 * A rule's value normalized for its match type, or why it cannot be one: a `word` is one token, a
 * `phrase` 2-8 tokens (joined by one space), a `domain` a host name (lowercased, a leading `www.` and
 * a scheme or path dropped; it matches its subdomains too).
 */
export const normalizeRuleValue = (
  match: FilterMatch,
  value: string,
): { ok: true; normalized: string } | { ok: false; problem: RuleValueProblem } => {
  if (match === "domain") {
    let text = foldText(value.trim());
    text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
    const slash = text.indexOf("/");
    if (slash >= 0) {
      text = text.slice(0, slash);
    }
    if (text.startsWith("www.")) {
      text = text.slice(4);
    }
    if (text.endsWith(".")) {
      text = text.slice(0, -1);
    }
    const host = [...text].every((char) => HOST_CHAR.test(char)) ? asHost(text) : null;
    if (!host || host !== text) {
      return { ok: false, problem: "must be a host name, such as example.com" };
    }

    return { ok: true, normalized: host };
  }
  const tokens = tokenize(value);
  if (tokens.length === 0) {
    return { ok: false, problem: "must contain a letter or a digit" };
  }
  if (match === "word" && tokens.length !== 1) {
    return { ok: false, problem: "a word rule is one word; use a phrase rule for several" };
  }
  if (match === "phrase" && (tokens.length < 2 || tokens.length > MAX_PHRASE_TOKENS)) {
    return { ok: false, problem: `a phrase rule has 2 to ${MAX_PHRASE_TOKENS} words` };
  }

  return { ok: true, normalized: tokens.join(" ") };
};

type ContextRules = {
  words: Map<string, FilterRule>;
  phrases: Map<string, FilterRule>;
  domains: Map<string, FilterRule>;
  /** The longest phrase's tokens (0: no phrase rule): a check looks up n-grams up to it. */
  longestPhrase: number;
};

/** A rule set ready for checks: per context, a map per match type from normalized value to rule. */
export type CompiledFilters = {
  readonly size: number;
  readonly byContext: ReadonlyMap<FilterContext, ContextRules>;
};

export const compileFilters = (rules: readonly FilterRule[]): CompiledFilters => {
  const byContext = new Map<FilterContext, ContextRules>();
  for (const rule of rules) {
    for (const context of rule.contexts) {
      let set = byContext.get(context);
      if (!set) {
        set = { words: new Map(), phrases: new Map(), domains: new Map(), longestPhrase: 0 };
        byContext.set(context, set);
      }
      if (rule.match === "word") {
        set.words.set(rule.normalizedValue, rule);
      } else if (rule.match === "phrase") {
        set.phrases.set(rule.normalizedValue, rule);
        const length = rule.normalizedValue.split(" ").length;
        set.longestPhrase = Math.max(set.longestPhrase, Math.min(length, MAX_PHRASE_TOKENS));
      } else {
        set.domains.set(rule.normalizedValue, rule);
      }
    }
  }

  return { size: rules.length, byContext };
};

/** One rule that matched, and the first field it matched in. */
export type FilterHit = { rule: FilterRule; field: string };

/** A check's outcome: the strongest action of the rules that hit (null: none), and every hit. */
export type FilterVerdict = {
  action: FilterAction | null;
  /** The field of the first hit of the strongest action (what a refusal names). */
  field: string | null;
  hits: FilterHit[];
};

const STRENGTH: Readonly<Record<FilterAction, number>> = { flag: 1, hold: 2, block: 3 };

/** Every rule `text` hits in `rules`, each once (its first hit). */
const hitsIn = (rules: ContextRules, text: string, found: Map<string, FilterRule>): void => {
  if (rules.words.size > 0 || rules.phrases.size > 0) {
    const tokens = tokenize(text);
    if (rules.words.size > 0) {
      for (const token of tokens) {
        const rule = rules.words.get(token);
        if (rule) {
          found.set(rule.id, rule);
        }
      }
    }
    if (rules.longestPhrase >= 2) {
      for (let start = 0; start < tokens.length - 1; start += 1) {
        let key = tokens[start] ?? "";
        const last = Math.min(tokens.length, start + rules.longestPhrase);
        for (let end = start + 1; end < last; end += 1) {
          key += ` ${tokens[end]}`;
          const rule = rules.phrases.get(key);
          if (rule) {
            found.set(rule.id, rule);
          }
        }
      }
    }
  }
  if (rules.domains.size > 0) {
    for (const host of extractHosts(text)) {
      let suffix = host;
      for (;;) {
        const rule = rules.domains.get(suffix);
        if (rule) {
          found.set(rule.id, rule);
        }
        const dot = suffix.indexOf(".");
        if (dot < 0) {
          break;
        }
        suffix = suffix.slice(dot + 1);
      }
    }
  }
};

/**
 * Checks `fields` (name → text; null or undefined are skipped) against the rules of `context`:
 * every rule that hits, and the strongest action among them (block > hold > flag).
 */
export const checkText = (
  filters: CompiledFilters,
  context: FilterContext,
  fields: Readonly<Record<string, string | null | undefined>>,
): FilterVerdict => {
  const rules = filters.byContext.get(context);
  const verdict: FilterVerdict = { action: null, field: null, hits: [] };
  if (!rules) {
    return verdict;
  }
  const seen = new Set<string>();
  for (const [field, text] of Object.entries(fields)) {
    if (!text) {
      continue;
    }
    const found = new Map<string, FilterRule>();
    hitsIn(rules, text, found);
    for (const rule of found.values()) {
      if (seen.has(rule.id)) {
        continue;
      }
      seen.add(rule.id);
      verdict.hits.push({ rule, field });
      if (verdict.action === null || STRENGTH[rule.action] > STRENGTH[verdict.action]) {
        verdict.action = rule.action;
        verdict.field = field;
      }
    }
  }

  return verdict;
};
