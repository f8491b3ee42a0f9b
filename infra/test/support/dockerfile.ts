// Reads infra/Dockerfile the way the builder does (dockerfile-ast), so the tests can lint it and run
// the image trees with its CMD, ENTRYPOINT, ENV, WORKDIR and HEALTHCHECK.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Arg, Copy, DockerfileParser, Env, type Instruction } from "dockerfile-ast";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const dockerfilePath = path.join(repoRoot, "infra", "Dockerfile");

export type Stage = {
  name: string | undefined;
  /** The FROM argument with build arguments substituted. */
  from: string;
  /** The stage this one starts from, when FROM names an earlier stage. */
  parent: Stage | undefined;
  instructions: Instruction[];
};

export type Healthcheck = { kind: "none" } | { kind: "cmd"; argv: string[] | undefined; text: string };

export type TargetConfig = {
  env: Record<string, string>;
  user: string | undefined;
  workdir: string | undefined;
  entrypoint: string[] | undefined;
  cmd: string[] | undefined;
  healthcheck: Healthcheck | undefined;
  /** COPY --from sources into this target's own stage. */
  copiesFrom: Array<{ stage: string; sources: string[]; destination: string; chown: string | undefined }>;
};

export type ParsedDockerfile = {
  text: string;
  /** ARGs before the first FROM, with their defaults. */
  globalArgs: Record<string, string>;
  stages: Stage[];
  stage(name: string): Stage;
  target(name: string): TargetConfig;
  /** Every ARG and ENV in the file, with the stage it is in. */
  variables: Array<{ keyword: "ARG" | "ENV"; name: string; value: string | undefined; stage: string }>;
};

const substitute = (value: string, args: Record<string, string>): string =>
  value.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? "";

    return args[name] ?? whole;
  });

/** The exec (JSON array) form of CMD, ENTRYPOINT or HEALTHCHECK CMD; undefined for the shell form. */
const execForm = (content: string): string[] | undefined => {
  const trimmed = content.trim();
  if (!trimmed.startsWith("[")) {
    return undefined;
  }
  const parsed: unknown = JSON.parse(trimmed);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw new Error(`not an exec-form array: ${trimmed}`);
  }

  return parsed;
};

/** `KEY=value KEY2="v 2"` of ENV and ARG, as the builder reads them. */
const keyValues = (instruction: Instruction): Array<{ name: string; value: string | undefined }> => {
  const properties =
    instruction instanceof Arg
      ? [instruction.getProperty()]
      : instruction instanceof Env
        ? instruction.getProperties()
        : [];

  return properties.flatMap((property) =>
    property ? [{ name: property.getName(), value: property.getValue() ?? undefined }] : [],
  );
};

export const parseDockerfile = (text: string): ParsedDockerfile => {
  const dockerfile = DockerfileParser.parse(text);
  const globalArgs: Record<string, string> = {};
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    if (property) {
      globalArgs[property.getName()] = property.getValue() ?? "";
    }
  }

  const stages: Stage[] = [];
  const variables: ParsedDockerfile["variables"] = [];
  let current: Stage | undefined;
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === "FROM") {
      const [image = "", , name] = instruction.getArguments().map((argument) => argument.getValue());
      const from = substitute(image, globalArgs);
      current = {
        name,
        from,
        parent: stages.find((stage) => stage.name === from),
        instructions: [],
      };
      stages.push(current);
      continue;
    }
    if (keyword === "ARG" || keyword === "ENV") {
      for (const { name, value } of keyValues(instruction)) {
        variables.push({ keyword, name, value, stage: current?.name ?? "(global)" });
      }
    }
    current?.instructions.push(instruction);
  }

  const stage = (name: string): Stage => {
    const found = stages.find((candidate) => candidate.name === name);
    if (!found) {
      throw new Error(`Dockerfile has no stage ${name}`);
    }

    return found;
  };

  const target = (name: string): TargetConfig => {
    const chain: Stage[] = [];
    for (let at: Stage | undefined = stage(name); at; at = at.parent) {
      chain.unshift(at);
    }
    const config: TargetConfig = {
      env: {},
      user: undefined,
      workdir: undefined,
      entrypoint: undefined,
      cmd: undefined,
      healthcheck: undefined,
      copiesFrom: [],
    };
    for (const link of chain) {
      for (const instruction of link.instructions) {
        switch (instruction.getKeyword()) {
          case "ENV":
            for (const { name: key, value } of keyValues(instruction)) {
              config.env[key] = value ?? "";
            }
            break;
          case "USER":
            config.user = instruction.getArgumentsContent() ?? undefined;
            break;
          case "WORKDIR":
            config.workdir = instruction.getArgumentsContent() ?? undefined;
            break;
          case "ENTRYPOINT":
            config.entrypoint = execForm(instruction.getArgumentsContent() ?? "");
            break;
          case "CMD":
            config.cmd = execForm(instruction.getArgumentsContent() ?? "");
            break;
          case "HEALTHCHECK": {
            const content = instruction.getArgumentsContent() ?? "";
            if (/^NONE$/i.test(content.trim())) {
              config.healthcheck = { kind: "none" };
            } else {
              const command = /\bCMD\s+(.*)$/s.exec(content)?.[1] ?? "";
              config.healthcheck = { kind: "cmd", argv: execForm(command), text: content };
            }
            break;
          }
          case "COPY": {
            if (link !== chain.at(-1) || !(instruction instanceof Copy)) {
              break;
            }
            const copy = instruction;
            const flag = (flagName: string) =>
              copy
                .getFlags()
                .find((candidate) => candidate.getName() === flagName)
                ?.getValue() ?? undefined;
            const from = flag("from");
            const paths = copy.getArguments().map((argument) => argument.getValue());
            if (from) {
              config.copiesFrom.push({
                stage: from,
                sources: paths.slice(0, -1),
                destination: paths.at(-1) ?? "",
                chown: flag("chown"),
              });
            }
            break;
          }
          default:
            break;
        }
      }
    }

    return config;
  };

  return { text, globalArgs, stages, stage, target, variables };
};

export const readDockerfile = (): ParsedDockerfile => parseDockerfile(readFileSync(dockerfilePath, "utf8"));
