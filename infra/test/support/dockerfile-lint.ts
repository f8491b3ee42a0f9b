// The Dockerfile rules that matter here, on top of dockerfile-utils' validator (the checks of the
// VS Code Docker language service): pinned bases, a non-root USER, no secrets in ENV/ARG, exec-form
// commands, a HEALTHCHECK without curl, and each image built by infra/build-image-tree.sh.
import { validate } from "dockerfile-utils";
import { type ParsedDockerfile, parseDockerfile } from "./dockerfile";

export type LintContext = {
  /** Final stages that are images (`docker build --target`). */
  targets: string[];
  /** Node.js version the images must run (the one .ci/run installs). */
  nodeVersion: string;
  /** pnpm version the build must use (package.json packageManager). */
  pnpmVersion: string;
};

const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE|CREDENTIAL|DATABASE_URL/i;
const URL_WITH_PASSWORD = /\/\/[^/\s:@]+:[^/\s@]+@/;
const PINNED_TAG = /^\d+\.\d+\.\d+(?:-[\w.-]+)?$/;

const checkBase = (stage: ParsedDockerfile["stages"][number], context: LintContext): string[] => {
  const problems: string[] = [];
  const where = `stage ${stage.name ?? "(unnamed)"}`;
  if (stage.from.includes("$")) {
    return [`${where}: base image ${stage.from} uses a build argument without a default`];
  }
  const match = /^(?<name>[\w./-]+)(?::(?<tag>[\w.-]+))?(?:@(?<digest>sha256:[0-9a-f]{64}))?$/.exec(
    stage.from,
  );
  const { name, tag, digest } = match?.groups ?? {};
  if (!name) {
    return [`${where}: cannot read base image ${stage.from}`];
  }
  if (!tag || tag === "latest") {
    problems.push(`${where}: base image ${stage.from} must name a version tag, not latest`);
  } else if (!digest && !PINNED_TAG.test(tag)) {
    problems.push(`${where}: base image ${stage.from} must be pinned to a full version (x.y.z) or a digest`);
  }
  if (name === "node" && tag && !tag.startsWith(`${context.nodeVersion}-`) && tag !== context.nodeVersion) {
    problems.push(`${where}: base image ${stage.from} is not Node.js ${context.nodeVersion} (.ci/run's)`);
  }

  return problems;
};

export const lintDockerfile = (text: string, context: LintContext): string[] => {
  const problems = validate(text).map(
    (diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`,
  );
  const parsed = parseDockerfile(text);

  for (const stage of parsed.stages) {
    if (!stage.parent) {
      problems.push(...checkBase(stage, context));
    }
  }

  for (const variable of parsed.variables) {
    if (SECRET_NAME.test(variable.name)) {
      problems.push(
        `${variable.keyword} ${variable.name} (${variable.stage}): secrets never go in ENV or ARG`,
      );
    }
    if (variable.value && URL_WITH_PASSWORD.test(variable.value)) {
      problems.push(`${variable.keyword} ${variable.name} (${variable.stage}): a URL with a password`);
    }
  }

  const pnpmArg = parsed.variables.find(
    (variable) => variable.keyword === "ARG" && variable.name === "PNPM_VERSION",
  );
  if (pnpmArg?.value !== context.pnpmVersion) {
    problems.push(`ARG PNPM_VERSION must default to ${context.pnpmVersion} (package.json packageManager)`);
  }

  for (const name of context.targets) {
    let target: ReturnType<ParsedDockerfile["target"]>;
    try {
      target = parsed.target(name);
    } catch (error) {
      problems.push(`target ${name}: ${(error as Error).message}`);
      continue;
    }
    const user = target.user?.split(":")[0];
    if (!user) {
      problems.push(`target ${name}: no USER (it would run as root)`);
    } else if (user === "root" || user === "0") {
      problems.push(`target ${name}: USER ${target.user} is root`);
    }
    if (!target.cmd) {
      problems.push(`target ${name}: CMD must be in exec form (a JSON array), so signals reach node`);
    }
    if (target.entrypoint === undefined && /^\s*ENTRYPOINT\b/im.test(text)) {
      problems.push(`target ${name}: ENTRYPOINT must be in exec form (a JSON array)`);
    }
    if (!target.healthcheck) {
      problems.push(
        `target ${name}: no HEALTHCHECK (state HEALTHCHECK NONE, with the reason, if it has none)`,
      );
    } else if (target.healthcheck.kind === "cmd") {
      if (!target.healthcheck.argv) {
        problems.push(`target ${name}: HEALTHCHECK CMD must be in exec form`);
      } else if (target.healthcheck.argv.some((word) => /\b(curl|wget)\b/.test(word))) {
        problems.push(`target ${name}: HEALTHCHECK needs curl or wget, which the image does not ship`);
      }
    }
    if (target.copiesFrom.length === 0) {
      problems.push(`target ${name}: copies nothing from a build stage`);
    }
    for (const copy of target.copiesFrom) {
      if (copy.chown) {
        problems.push(`target ${name}: COPY --chown=${copy.chown} makes the code writable by the process`);
      }
      const builder = parsed.stages.find((stage) => stage.name === copy.stage);
      const script = builder?.instructions
        .filter((instruction) => instruction.getKeyword() === "RUN")
        .map((instruction) =>
          /infra\/build-image-tree\.sh\s+(\S+)\s+(\S+)/.exec(instruction.getArgumentsContent() ?? ""),
        )
        .find(Boolean);
      if (!script) {
        problems.push(`target ${name}: stage ${copy.stage} does not run infra/build-image-tree.sh`);
      } else if (script[2] !== name || !copy.sources.includes(script[1] ?? "")) {
        problems.push(
          `target ${name}: copies ${copy.sources.join(" ")} from a stage that builds ${script[2]} into ${script[1]}`,
        );
      }
    }
  }

  return problems;
};
