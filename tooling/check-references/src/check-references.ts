/**
 * The dangling-reference check (`pnpm lint`, `.ci/run`): a Markdown link, or a repository path
 * named in a code comment or a document, must point at something in the repository.
 *
 * Files read: those git tracks (so node_modules, dist/ and other build output never are, nor the
 * temporary files a build running beside this check writes). What exists is every file git lists,
 * tracked or new and not ignored: a link to a file not yet added passes here, and fails in CI's
 * clean clone if it is never added.
 *
 * 1. Markdown links, in every *.md: [text](target), ![alt](target), [label]: target, and the href
 *    or src of HTML in Markdown. A target with a scheme (https:, mailto:) is not checked. Others
 *    resolve from the Markdown file's folder (from the repository root when they start with "/")
 *    and must name a file or folder git lists: a link to an ignored file is dangling for a reader of
 *    the repository. A #fragment into a Markdown file must be one of its headings (GitHub's slugs)
 *    or an explicit id/name anchor.
 *
 * 2. Repository paths, in code comments (TypeScript and JavaScript comments; the `#` comments of
 *    shell, YAML, Dockerfile, nginx and env files; `//` in Prisma schemas; `--` in SQL) and in the
 *    text, inline code and code blocks of Markdown. Only a token with a slash counts, and only when
 *    its first folder says where it starts from:
 *    - a top-level folder of the repository (apps/, packages/, infra/, bench/, tooling/, .ci/, and
 *      the documentation's folder, docs, whether it exists yet or not): resolved from the root,
 *      e.g. packages/db/src/sql.ts;
 *    - a folder at the top of the file's own package (the nearest folder with a package.json, not
 *      the root's): src and test always, and any other folder the package has (prisma, scripts,
 *      k8s); resolved from the package, so src/main.ts in a comment of this package means
 *      tooling/check-references/src/main.ts;
 *    - ./ or ../: resolved from the file's folder, its package or the root (a command in a comment
 *      runs from one of them); it must be found from one.
 *    Any other token (and/or, hono/utils, text/plain) is not a path. A token glued to what comes
 *    before it is part of something else and is skipped: a URL (https://host/apps/x), a package
 *    (@agora/db/sql), a variable ($root/apps). Trailing dots end a sentence, not the path; a line
 *    suffix (:12, #L12) is not part of it. A path that runs into a pattern (*, {, <, $, [) is
 *    checked up to its last whole folder, so apps/* checks apps/.
 *    The path must exist, or be one git ignores: build output (apps/api/dist/start.js) and local
 *    files the reader creates (infra/.env) are named on purpose.
 *
 * Historical records describe the tree as it was, so their paths are not checked: CHANGELOG.md
 * files (their links are) and applied migrations (never edited).
 *
 * Intentional examples: a line holding "check-references: ignore" is skipped, and so is the line
 * after one holding "check-references: ignore-next-line" (in Markdown, inside an HTML comment).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString as textOf } from "mdast-util-to-string";
import ts from "typescript";

export type Finding = { file: string; line: number; reference: string; problem: string };

/** A reference found in a file: where, what, and how it resolves. */
type Reference = { line: number; text: string } & (
  | { kind: "link"; resolved: string | undefined }
  | { kind: "path"; candidates: string[] }
);

const IGNORE_LINE = "check-references: ignore";
const IGNORE_NEXT_LINE = "check-references: ignore-next-line";

/** Always a top-level folder, existing or not: the documentation's home. */
const ROOT_FOLDERS_ALWAYS = ["docs"];
/** Always a package folder, existing or not. */
const PACKAGE_FOLDERS_ALWAYS = ["src", "test"];

const PATH_TOKEN = /(?<![\w.@/~$:%#=-])(?:[\w.@+-]+\/)+[\w.@+-]*/g;
const PATTERN_CHARS = new Set(["*", "{", "<", "$", "["]);

const TS_FILES = /\.(?:[cm]?[jt]sx?)$/;
const HASH_COMMENT_FILES =
  /(?:\.(?:sh|bash|ya?ml|conf|env|env\.example|toml)|(?:^|\/)Dockerfile[^/]*|^\.ci\/[^/.]+)$/;
const HISTORICAL = [/(?:^|\/)CHANGELOG\.md$/, /^packages\/db\/prisma\/migrations\//];

const git = (root: string, args: string[], input?: string) => {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8", input, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) {
    throw result.error;
  }

  return result;
};

/** The repository as git sees it: files (tracked or new, not ignored) and the folders holding them. */
type Tree = {
  root: string;
  /** The tracked files: the ones read. */
  tracked: string[];
  files: Set<string>;
  folders: Set<string>;
  rootFolders: Set<string>;
  packages: string[];
  packageFolders: Map<string, Set<string>>;
};

const readTree = (root: string): Tree => {
  const list = (which: string) => {
    const listed = git(root, ["ls-files", "-z", which, "--exclude-standard"]);
    if (listed.status !== 0) {
      throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
    }

    return listed.stdout.split("\0").filter((file) => file !== "" && existsSync(path.join(root, file)));
  };
  const tracked = list("--cached");
  const files = new Set([...tracked, ...list("--others")]);
  const folders = new Set<string>([""]);
  for (const file of files) {
    for (let at = file.indexOf("/"); at !== -1; at = file.indexOf("/", at + 1)) {
      folders.add(file.slice(0, at));
    }
  }
  const packages = [...files]
    .filter((file) => file === "package.json" || file.endsWith("/package.json"))
    .map((file) => path.posix.dirname(file))
    .map((folder) => (folder === "." ? "" : folder))
    .sort((a, b) => b.length - a.length);
  const topFolders = (base: string) =>
    new Set(
      [...folders]
        .filter((folder) => folder !== base && path.posix.dirname(folder) === (base === "" ? "." : base))
        .map((folder) => path.posix.basename(folder)),
    );
  // The root's folders are the repository's; a package's own are resolved from the package.
  const packageFolders = new Map(
    packages.map((pkg) => [pkg, new Set(pkg === "" ? [] : [...topFolders(pkg), ...PACKAGE_FOLDERS_ALWAYS])]),
  );

  return {
    root,
    tracked,
    files,
    folders,
    rootFolders: new Set([...topFolders(""), ...ROOT_FOLDERS_ALWAYS]),
    packages,
    packageFolders,
  };
};

const packageOf = (tree: Tree, file: string) =>
  tree.packages.find((pkg) => pkg === "" || file.startsWith(`${pkg}/`)) ?? "";

/** Normalises a path relative to the root; undefined when it leaves the repository. */
const insideRoot = (joined: string): string | undefined => {
  const normal = path.posix.normalize(joined);
  if (normal === ".." || normal.startsWith("../") || path.posix.isAbsolute(normal)) {
    return undefined;
  }

  return normal === "." ? "" : normal.replace(/\/$/, "");
};

/** The repository paths in `text` (a comment, a Markdown text), resolved; others are not paths. */
const pathsIn = (tree: Tree, file: string, text: string, firstLine: number): Reference[] => {
  const found: Reference[] = [];
  const pkg = packageOf(tree, file);
  const own = tree.packageFolders.get(pkg) ?? new Set<string>();
  for (const match of text.matchAll(PATH_TOKEN)) {
    let token = match[0];
    const next = text[match.index + token.length];
    if (next !== undefined && PATTERN_CHARS.has(next)) {
      token = token.slice(0, token.lastIndexOf("/") + 1);
    }
    token = token.replace(/\.+$/, "");
    const first = token.slice(0, token.indexOf("/"));
    let bases: string[] = [];
    if (first === "." || first === "..") {
      bases = [...new Set([path.posix.dirname(file), pkg, ""])];
    } else if (tree.rootFolders.has(first)) {
      bases = [""];
    } else if (own.has(first)) {
      bases = [pkg];
    }
    if (bases.length === 0 || token === "") {
      continue;
    }
    const line = firstLine + (text.slice(0, match.index).match(/\n/g)?.length ?? 0);
    const candidates = bases
      .map((base) => insideRoot(path.posix.join(base, token)))
      .filter((candidate) => candidate !== undefined);
    found.push({ line, text: token, kind: "path", candidates });
  }

  return found;
};

const lineAt = (text: string, offset: number) => (text.slice(0, offset).match(/\n/g)?.length ?? 0) + 1;

/** The comments of a TypeScript or JavaScript file, with the line each starts on. */
const tsComments = (file: string, text: string): Array<{ line: number; text: string }> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const seen = new Set<number>();
  const comments: Array<{ line: number; text: string }> = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (!seen.has(range.pos)) {
        seen.add(range.pos);
        comments.push({
          line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
          text: text.slice(range.pos, range.end),
        });
      }
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(source)) {
      visit(child);
    }
  };
  visit(source);

  return comments;
};

/** The text after `marker` on each line, when the marker is not inside a quoted string. */
const lineComments = (text: string, marker: "#" | "//" | "--") =>
  text.split("\n").flatMap((line, index) => {
    let quote: string | undefined;
    for (let at = 0; at < line.length; at++) {
      const char = line[at];
      if (quote) {
        quote = char === quote ? undefined : quote;
      } else if (char === '"' || char === "'" || char === "`") {
        quote = char;
      } else if (
        line.startsWith(marker, at) &&
        (marker !== "#" || at === 0 || /\s/.test(line[at - 1] ?? ""))
      ) {
        return [{ line: index + 1, text: line.slice(at + marker.length) }];
      }
    }

    return [];
  });

/** Headings' slugs (as GitHub makes them) and explicit anchors of a Markdown file. */
const anchorsOf = (text: string): Set<string> => {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const visit = (node: Nodes) => {
    if (node.type === "heading") {
      anchors.add(slugger.slug(textOf(node)));
    }
    if (node.type === "html") {
      for (const match of node.value.matchAll(/\b(?:id|name)\s*=\s*["']([^"']+)["']/g)) {
        anchors.add((match[1] ?? "").toLowerCase());
      }
    }
    if ("children" in node) {
      for (const child of node.children) {
        visit(child);
      }
    }
  };
  visit(fromMarkdown(text));

  return anchors;
};

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Links and text of a Markdown file. */
const markdownReferences = (tree: Tree, file: string, text: string, pathsToo: boolean): Reference[] => {
  const found: Reference[] = [];
  const link = (target: string, line: number) => {
    if (HAS_SCHEME.test(target) || target.startsWith("//") || target === "") {
      return;
    }
    const hash = target.indexOf("#");
    const pathPart = hash === -1 ? target : target.slice(0, hash);
    const fragment = hash === -1 ? undefined : target.slice(hash + 1);
    let decoded = pathPart;
    try {
      decoded = decodeURI(pathPart.split("?")[0] ?? "");
    } catch {}
    const resolved =
      decoded === ""
        ? file
        : insideRoot(
            decoded.startsWith("/") ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded),
          );
    found.push({
      line,
      text: target,
      kind: "link",
      resolved:
        resolved === undefined ? undefined : `${resolved}${fragment === undefined ? "" : `#${fragment}`}`,
    });
  };
  const visit = (node: Nodes) => {
    const line = node.position?.start.line ?? 1;
    if (node.type === "link" || node.type === "image" || node.type === "definition") {
      link(node.url, line);
    }
    if (node.type === "html") {
      for (const match of node.value.matchAll(/\b(?:href|src)\s*=\s*["']([^"']*)["']/g)) {
        link(match[1] ?? "", line + lineAt(node.value, match.index) - 1);
      }
    }
    if (pathsToo && (node.type === "text" || node.type === "inlineCode" || node.type === "code")) {
      // A fenced block's first line is its fence.
      const first =
        node.type === "code" && /^\s*(```|~~~)/.test(text.split("\n")[line - 1] ?? "") ? line + 1 : line;
      found.push(...pathsIn(tree, file, node.value, first));
    }
    if ("children" in node) {
      for (const child of node.children) {
        visit(child);
      }
    }
  };
  visit(fromMarkdown(text));

  return found;
};

const referencesIn = (tree: Tree, file: string, text: string): Reference[] => {
  const historical = HISTORICAL.some((pattern) => pattern.test(file));
  if (file.endsWith(".md")) {
    return markdownReferences(tree, file, text, !historical);
  }
  if (historical) {
    return [];
  }
  let comments: Array<{ line: number; text: string }> = [];
  if (TS_FILES.test(file)) {
    comments = tsComments(file, text);
  } else if (HASH_COMMENT_FILES.test(file) || /^#!.*\b(?:ba)?sh\b/.test(text)) {
    comments = lineComments(text, "#");
  } else if (file.endsWith(".prisma")) {
    comments = lineComments(text, "//");
  } else if (file.endsWith(".sql")) {
    comments = lineComments(text, "--");
  }

  return comments.flatMap((comment) => pathsIn(tree, file, comment.text, comment.line));
};

/**
 * Which of `paths` git ignores (they need not exist). Each is asked as a file and as a folder: a
 * pattern such as "bench/results/" matches a folder only, which git cannot tell of a missing path.
 */
const ignoredPaths = (root: string, paths: string[]): Set<string> => {
  if (paths.length === 0) {
    return new Set();
  }
  const asked = paths.flatMap((candidate) => [candidate, `${candidate}/`]);
  const result = git(root, ["check-ignore", "--no-index", "--stdin", "-z"], `${asked.join("\0")}\0`);
  if (result.status !== 0 && result.status !== 1) {
    throw new Error(`git check-ignore failed: ${result.stderr}`);
  }

  return new Set(
    result.stdout
      .split("\0")
      .filter(Boolean)
      .map((ignored) => ignored.replace(/\/$/, "")),
  );
};

/** Every dangling reference under `root` (a git work tree), in file and line order. */
export const checkReferences = (root: string): Finding[] => {
  const tree = readTree(root);
  const anchors = new Map<string, Set<string>>();
  const anchorsFor = (file: string) => {
    let known = anchors.get(file);
    if (!known) {
      known = anchorsOf(readFileSync(path.join(root, file), "utf8"));
      anchors.set(file, known);
    }

    return known;
  };
  const exists = (target: string) => tree.files.has(target) || tree.folders.has(target);

  const pending: Array<Finding & { candidates: string[] }> = [];
  const findings: Finding[] = [];
  for (const file of [...tree.tracked].sort()) {
    let text: string;
    try {
      text = readFileSync(path.join(root, file), "utf8");
    } catch (error) {
      // Deleted since git listed it (a tracked file removed while this runs).
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        continue;
      }
      throw error;
    }
    if (text.includes("\0")) {
      continue;
    }
    const lines = text.split("\n");
    const skipped = (line: number) =>
      (lines[line - 1] ?? "").includes(IGNORE_LINE) || (lines[line - 2] ?? "").includes(IGNORE_NEXT_LINE);
    for (const reference of referencesIn(tree, file, text)) {
      if (skipped(reference.line)) {
        continue;
      }
      const at = { file, line: reference.line, reference: reference.text };
      if (reference.kind === "path") {
        if (reference.candidates.length === 0) {
          findings.push({ ...at, problem: "points outside the repository" });
        } else if (!reference.candidates.some(exists)) {
          const problem = `no such file or folder: ${reference.candidates.join(" or ")}`;
          pending.push({ ...at, candidates: reference.candidates, problem });
        }
        continue;
      }
      if (reference.resolved === undefined) {
        findings.push({ ...at, problem: "points outside the repository" });
        continue;
      }
      const [target = "", fragment] = reference.resolved.split("#");
      if (!exists(target)) {
        findings.push({ ...at, problem: `no such file or folder: ${target || "."}` });
      } else if (
        fragment !== undefined &&
        fragment !== "" &&
        target.endsWith(".md") &&
        tree.files.has(target)
      ) {
        let wanted = fragment;
        try {
          wanted = decodeURIComponent(fragment);
        } catch {}
        if (!anchorsFor(target).has(wanted.toLowerCase())) {
          findings.push({ ...at, problem: `no heading or anchor #${wanted} in ${target}` });
        }
      }
    }
  }
  const ignored = ignoredPaths(
    root,
    pending.flatMap((finding) => finding.candidates),
  );
  for (const { candidates, ...finding } of pending) {
    if (!candidates.some((candidate) => ignored.has(candidate))) {
      findings.push(finding);
    }
  }

  // Code-point order, as git lists files.
  return findings.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
};

export const formatFinding = (finding: Finding) =>
  `${finding.file}:${finding.line}: ${finding.reference}: ${finding.problem}`;
