// Schema checks for rendered Kubernetes objects, from the kubernetes-models package (the
// Kubernetes OpenAPI definitions as validators and TypeScript types). Two passes:
// - its validators: types, formats, enums and required fields;
// - a TypeScript compile of the objects as typed literals, which also rejects unknown fields (a
//   misspelt `readinesProbe` is valid to the OpenAPI schema, but not to an excess-property check).
// Custom resources (CloudNativePG) have no models: they are reported as not checked.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import * as models from "kubernetes-models";
import type { K8sObject } from "./kubernetes";

const require = createRequire(import.meta.url);

type Validatable = new (data: unknown) => { validate(): void };

const groupKey = (group: string): string =>
  group
    .split(".")
    .map((part, index) => (index === 0 ? part : `${part.charAt(0).toUpperCase()}${part.slice(1)}`))
    .join("");

const location = (object: K8sObject): { module: string; key: string; version: string } => {
  const [group, version] = object.apiVersion.includes("/")
    ? (object.apiVersion.split("/") as [string, string])
    : ["", object.apiVersion];

  return {
    module: group
      ? `kubernetes-models/${group}/${version}/${object.kind}`
      : `kubernetes-models/${version}/${object.kind}`,
    key: group ? groupKey(group) : version,
    version,
  };
};

const modelOf = (object: K8sObject): Validatable | undefined => {
  const { key, version } = location(object);
  const group = (models as unknown as Record<string, Record<string, Record<string, unknown>> | undefined>)[
    key
  ];
  const model = (group?.[version] ?? (key === version ? group : undefined))?.[object.kind];

  return typeof model === "function" ? (model as Validatable) : undefined;
};

export const hasModel = (object: K8sObject): boolean => modelOf(object) !== undefined;

/** Problems the OpenAPI validators find, one line each. */
export const validateObjects = (objects: K8sObject[]): string[] =>
  objects.flatMap((object) => {
    const Model = modelOf(object);
    if (!Model) {
      return [];
    }
    try {
      new Model(object).validate();

      return [];
    } catch (error) {
      return [`${object.kind} ${object.metadata.name}: ${(error as Error).message.split("\n")[0]}`];
    }
  });

/** Problems the TypeScript compiler finds with the objects as typed literals (unknown fields). */
export const typecheckObjects = (objects: K8sObject[]): string[] => {
  const modelled = objects.filter(hasModel);
  const dir = mkdtempSync(path.join(tmpdir(), "agora-k8s-types-"));
  try {
    const packageDir = path.dirname(require.resolve("kubernetes-models/package.json"));
    // Each object's first line, to name it in the compiler's messages.
    const starts: Array<{ line: number; name: string }> = [];
    let line = 1;
    const chunks = modelled.map((object, index) => {
      const { module } = location(object);
      const chunk = `export const object${index}: import("${module}").I${object.kind} = ${JSON.stringify(object, null, 2)};\n`;
      starts.push({ line, name: `${object.kind} ${object.metadata.name}` });
      line += chunk.split("\n").length - 1;

      return chunk;
    });
    writeFileSync(path.join(dir, "objects.ts"), chunks.join(""));
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "Preserve",
          moduleResolution: "Bundler",
          skipLibCheck: true,
          types: [],
          paths: { "kubernetes-models/*": [`${packageDir}/*`] },
        },
        files: ["objects.ts"],
      }),
    );
    const tsc = require.resolve("typescript/bin/tsc");
    const result = spawnSync(
      process.execPath,
      [tsc, "-p", path.join(dir, "tsconfig.json"), "--pretty", "false"],
      {
        encoding: "utf8",
      },
    );
    if (result.status === 0) {
      return [];
    }
    const output = `${result.stdout}${result.stderr}`.trim();

    return output
      .split("\n")
      .filter((text) => text.includes("error TS"))
      .map((text) => {
        const at = Number(/objects\.ts\((\d+),/.exec(text)?.[1] ?? 0);
        const owner = starts.filter((start) => start.line <= at).at(-1)?.name ?? "?";

        return `${owner}: ${text.replace(/^.*?error /, "")}`;
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
