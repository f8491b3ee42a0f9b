import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { repoRoot } from "./dockerfile";

export const readRepoFile = (relative: string): string => readFileSync(path.join(repoRoot, relative), "utf8");

/** YAML with merge keys (`<<: *anchor`), as compose reads it. */
export const parseYaml = <T>(text: string): T => parse(text, { merge: true }) as T;

/**
 * The variables listed in docs/configuration.md (the public list, rendered from
 * packages/process/src/settings.ts): each entry of its "Environment variables" section is a list
 * item that starts with the variable's name in a code span.
 */
export const documentedVariables = (): string[] => {
  const page = readRepoFile("docs/configuration.md");
  const section = /^## Environment variables\n([\s\S]*?)^## /m.exec(page)?.[1] ?? "";
  const names = [...section.matchAll(/^- `([A-Z][A-Z0-9_]+)`/gm)].map((match) => match[1] ?? "");

  return [...new Set(names)].sort();
};

/** `KEY=value` lines of an env file, comments and blanks skipped. */
export const envFile = (text: string): Map<string, string> =>
  new Map(
    text
      .split("\n")
      .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
      .flatMap((match) => (match ? [[match[1] ?? "", match[2] ?? ""] as const] : [])),
  );
