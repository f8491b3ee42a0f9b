// Rendering infra/k8s with kubectl's kustomize, and reading the objects it prints.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { repoRoot } from "./dockerfile";

export const k8sRoot = path.join(repoRoot, "infra", "k8s");

// Loose shapes: the tests read what they check, and the schema validation covers the rest.
export type Container = {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: Record<string, { name: string; key: string }> }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
};
export type PodSpec = {
  containers: Container[];
  securityContext?: Record<string, unknown>;
  volumes?: Array<{ name: string; secret?: { secretName: string }; configMap?: { name: string } }>;
  serviceAccountName?: string;
};
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};

export const kubectl = (() => {
  const probe = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });

  return probe.status === 0 ? { version: probe.stdout.split("\n").join("; ").trim() } : undefined;
})();

export const parseObjects = (text: string): K8sObject[] =>
  parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) {
      throw new Error(document.errors.map((error) => error.message).join("\n"));
    }
    const value = document.toJS() as K8sObject | null;

    return value ? [value] : [];
  });

const render = (dir: string): string => {
  const result = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`kubectl kustomize ${dir} failed:\n${result.stderr}`);
  }

  return result.stdout;
};

/** `kubectl kustomize` of a folder under infra/k8s. */
export const renderK8s = (relative: string): string => render(path.join(k8sRoot, relative));

/** An overlay of our own making: resources and components given relative to infra/k8s. */
export const renderComposed = (resources: string[], components: string[]): string => {
  const dir = mkdtempSync(path.join(tmpdir(), "agora-kustomize-"));
  try {
    const up = path.relative(dir, k8sRoot);
    const list = (items: string[]) => items.map((item) => `  - ${path.join(up, item)}`).join("\n");
    writeFileSync(
      path.join(dir, "kustomization.yaml"),
      `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${list(resources)}\ncomponents:\n${list(components)}\n`,
    );

    return render(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The pod spec of a Deployment or Job. */
export const podSpec = (object: K8sObject): PodSpec | undefined =>
  (object.spec?.template as { spec?: PodSpec } | undefined)?.spec;

export const find = (objects: K8sObject[], kind: string, name: string): K8sObject => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) {
    throw new Error(`no ${kind} ${name} in the rendered objects`);
  }

  return found;
};
