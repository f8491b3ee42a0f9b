/**
 * The documents rendered from settings.ts: the variables' section of docs/configuration.md and
 * infra/.env.example's settings. Each lives between two marker lines of its file; the text around
 * them is written by hand. settings.test.ts compares them with the committed files, and writes them
 * with `pnpm --filter @agora/process settings:write`.
 */
import { operations } from "@agora/contracts/operations";
import { writeLimitDefaults, writeLimitKinds, writeLimits } from "@agora/domain/common/write-limits";
import {
  type Setting,
  type SettingGroup,
  type SettingName,
  settingGroups,
  settingNames,
  settings,
  writeLimitVariable,
} from "./settings";

export const SETTINGS_WRITE_COMMAND = "pnpm --filter @agora/process settings:write";

/** Lines at most this wide, so each reads in a terminal. */
export const WIDTH = 100;

export type Document = Readonly<{ path: string; begin: string; end: string; render: () => string }>;

const groupsInOrder = (): Array<[SettingGroup, SettingName[]]> =>
  (Object.keys(settingGroups) as SettingGroup[]).map((group) => [
    group,
    settingNames.filter((name) => settings[name].group === group),
  ]);

/** Splits at spaces outside code spans, so a code span is never broken across lines. */
const words = (text: string): string[] => {
  const found: string[] = [];
  let current = "";
  let inCode = false;
  for (const char of text) {
    if (char === "`") {
      inCode = !inCode;
    }
    if (char === " " && !inCode) {
      if (current) {
        found.push(current);
      }
      current = "";
    } else {
      current += char;
    }
  }

  return current ? [...found, current] : found;
};

/** `text` filled into lines of at most WIDTH (a longer word stands alone), the first after `first`. */
const wrap = (text: string, first: string, rest: string): string[] => {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words(text)) {
    if (!empty && `${line} ${word}`.length > WIDTH) {
      lines.push(line);
      line = rest + word;
    } else {
      line = empty ? line + word : `${line} ${word}`;
    }
    empty = false;
  }

  return [...lines, line];
};

const UNITS: Array<[suffix: string, steps: Array<[size: number, unit: string]>]> = [
  [
    "_MS",
    [
      [86_400_000, "days"],
      [3_600_000, "h"],
      [60_000, "min"],
      [1_000, "s"],
    ],
  ],
  [
    "_SECONDS",
    [
      [86_400, "days"],
      [3_600, "h"],
      [60, "min"],
    ],
  ],
  [
    "_BYTES_PER_DAY",
    [
      [2 ** 30, "GiB"],
      [2 ** 20, "MiB"],
    ],
  ],
];

/** `7776000` for SESSION_MAX_AGE_SECONDS reads `7776000` (90 days). */
const humanized = (name: string, value: string): string | undefined => {
  const number = Number(value);
  const steps = UNITS.find(([suffix]) => name.endsWith(suffix))?.[1] ?? [];
  const step = steps.find(([size]) => number >= size && number % size === 0);

  if (!step) {
    return undefined;
  }
  const count = number / step[0];

  return `${count} ${count === 1 && step[1] === "days" ? "day" : step[1]}`;
};

/** What a variable takes and its default, the flags last; Markdown. */
const facts = (name: string, setting: Setting): string[] => {
  const found: string[] = [];
  if (setting.values) {
    found.push(setting.values.map((value) => `\`${value}\``).join(" | "));
  }
  if (setting.range) {
    found.push(`${setting.range[0]}–${setting.range[1]}`);
  }
  if (setting.maxLength !== undefined) {
    found.push(`at most ${setting.maxLength} characters`);
  }
  if (setting.default !== undefined) {
    const human = humanized(name, setting.default);
    found.push(`default \`${setting.default}\`${human ? ` = ${human}` : ""}`);
  } else if (setting.defaultNote) {
    found.push(`default ${setting.defaultNote}`);
  }
  if (setting.secret) {
    found.push("secret");
  }
  if (setting.requiredWhenStrict) {
    found.push("required in staging and production");
  }

  return found;
};

const markdownSection = (): string => {
  const lines = [
    "<!-- Generated from packages/process/src/settings.ts: edit the declarations there, then run",
    `${SETTINGS_WRITE_COMMAND}. -->`,
  ];
  for (const [group, names] of groupsInOrder()) {
    const { title, summary } = settingGroups[group];
    lines.push("", `### ${title}`, "", ...wrap(summary, "", ""), "");
    for (const name of names) {
      const setting: Setting = settings[name];
      const about = facts(name, setting);
      const head = `- \`${name}\`${about.length > 0 ? ` (${about.join("; ")})` : ""}:`;
      lines.push(...wrap(`${head} ${setting.description}`, "", "  "));
    }
  }

  return `${lines.join("\n")}\n`;
};

/**
 * Markdown to an env file's comments: links name their file under docs/, code spans lose their
 * ticks, and a list of values (`a` | `b`) closes up so a line never breaks inside it.
 */
const plain = (markdown: string): string =>
  markdown
    .replaceAll("` | `", "`|`")
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_link, label: string, target: string) => {
      const file = target.startsWith("#") ? `docs/configuration.md${target}` : `docs/${target}`;

      return /\s/.test(label) ? `${label} (${file})` : file;
    })
    .replaceAll("`", "");

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** What infra/.env.example sets: the example, else the default, else nothing; secrets nothing. */
export const exampleValue = (setting: Setting): string =>
  setting.example ?? (setting.secret ? "" : (setting.default ?? ""));

const envSection = (): string => {
  const lines = [
    "# Generated from packages/process/src/settings.ts: edit the declarations there, then run",
    `# ${SETTINGS_WRITE_COMMAND}.`,
  ];
  for (const [group, names] of groupsInOrder()) {
    const { title, summary } = settingGroups[group];
    const rule = `# --- ${title} `;
    lines.push("", rule.padEnd(WIDTH, "-"), ...wrap(plain(summary), "# ", "# "), "");
    for (const name of names) {
      const setting: Setting = settings[name];
      const value = exampleValue(setting);
      // The value line shows the default; the comment says it only when the example differs.
      const about = facts(name, value === setting.default ? { ...setting, default: undefined } : setting);
      const comment = `${capitalized(setting.description)}${about.length > 0 ? ` [${about.join("; ")}]` : ""}`;
      lines.push(...wrap(plain(comment), "# ", "# "), `${name}=${value}`);
    }
  }

  return `${lines.join("\n")}\n`;
};

export const documents: readonly Document[] = [
  {
    path: "docs/configuration.md",
    begin: "<!-- settings:begin -->",
    end: "<!-- settings:end -->",
    render: markdownSection,
  },
  { path: "infra/.env.example", begin: "# settings:begin", end: "# settings:end", render: envSection },
];

/**
 * docs/safety.md's list of the write limits: what each counts, the routes that count it (the
 * operations whose contract names its kind), its default and its variable.
 */
const writeLimitsSection = (): string => {
  const lines = [
    "<!-- Generated from packages/domain/src/common/write-limits.ts and the operations' `writeLimit`:",
    `edit them there, then run ${SETTINGS_WRITE_COMMAND}. -->`,
    "",
  ];
  for (const kind of writeLimitKinds) {
    const routes = operations
      .filter((operation) => operation.writeLimit === kind)
      .map((operation) => `\`${operation.method} ${operation.path}\``);
    const item =
      `- **${writeLimits[kind].counts}**: ${writeLimitDefaults[kind]} per hour, ` +
      `\`${writeLimitVariable(kind)}\` (${routes.join(", ") || "no route yet"}).`;
    lines.push(...wrap(item, "", "  "));
  }

  return `${lines.join("\n")}\n`;
};

/** The write limits' section of docs/safety.md (its own test: it names the limits, not the variables). */
export const writeLimitsDocument: Document = {
  path: "docs/safety.md",
  begin: "<!-- write-limits:begin -->",
  end: "<!-- write-limits:end -->",
  render: writeLimitsSection,
};

/** Where a document's section starts and ends in its file (undefined without both marker lines, in order). */
const sectionOf = (file: string, document: Document): { start: number; end: number } | undefined => {
  const lines = file.split("\n");
  const begin = lines.indexOf(document.begin);
  const end = lines.indexOf(document.end, begin + 1);
  if (begin < 0 || end < 0) {
    return undefined;
  }
  const offset = (line: number) => lines.slice(0, line).join("\n").length + (line > 0 ? 1 : 0);

  return { start: offset(begin + 1), end: offset(end) };
};

/** The text between a document's marker lines. */
export const between = (file: string, document: Document): string | undefined => {
  const section = sectionOf(file, document);

  return section && file.slice(section.start, section.end);
};

/** The file with its rendered section in place of the old one. */
export const withSection = (file: string, document: Document): string => {
  const section = sectionOf(file, document);
  if (!section) {
    throw new Error(`${document.path} lacks its marker lines (${document.begin}, ${document.end})`);
  }

  return file.slice(0, section.start) + document.render() + file.slice(section.end);
};

/**
 * The variables a rendered section names, in order: a list item's first code span (Markdown) or a
 * `NAME=` line (env file).
 */
export const variablesIn = (section: string): string[] =>
  [...section.matchAll(/^(?:- `([A-Z][A-Z0-9_]*)`|([A-Z][A-Z0-9_]*)=)/gm)].map(
    (match) => match[1] ?? match[2] ?? "",
  );
