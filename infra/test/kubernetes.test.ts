import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Container,
  find,
  type K8sObject,
  k8sRoot,
  kubectl,
  parseObjects,
  podSpec,
  renderComposed,
  renderK8s,
} from "./support/kubernetes";
import { hasModel, typecheckObjects, validateObjects } from "./support/kubernetes-schema";
import { parseYaml, readRepoFile } from "./support/repo-files";

/** Secrets the manifests reference but never contain: created by the operator or out of band. */
const EXTERNAL_SECRETS = [
  "agora-secrets",
  "agora-pg-app",
  "agora-pg-runtime",
  "agora-pg-ca",
  "agora-api-tls",
];
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|API_?KEY|ACCESS_KEY|CREDENTIAL|DATABASE_URL/i;
/** A URL with a literal password; `$(VAR)` expansions are references, not literals. */
const LITERAL_PASSWORD_URL = /:\/\/[^\s:/@"]+:(?!\$\()[^\s@/"]+@/;

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return yamlFiles(full);
    }

    return entry.name.endsWith(".yaml") ? [full] : [];
  });

const workloads = (objects: K8sObject[]) =>
  objects.filter((object) => object.kind === "Deployment" || object.kind === "Job");

const containersOf = (objects: K8sObject[]): Array<{ owner: string; container: Container }> =>
  workloads(objects).flatMap((object) =>
    (podSpec(object)?.containers ?? []).map((container) => ({
      owner: `${object.kind} ${object.metadata.name}`,
      container,
    })),
  );

/** Literal secrets in rendered objects, one line each. */
const literalSecrets = (objects: K8sObject[]): string[] => {
  const problems: string[] = [];
  for (const object of objects) {
    if (object.kind === "Secret") {
      problems.push(`Secret ${object.metadata.name}: secrets are created out of band, never rendered`);
    }
    if (object.kind === "ConfigMap") {
      for (const [key, value] of Object.entries(object.data ?? {})) {
        if (SECRET_NAME.test(key) || LITERAL_PASSWORD_URL.test(value)) {
          problems.push(`ConfigMap ${object.metadata.name}: ${key} belongs in a Secret`);
        }
      }
    }
  }
  for (const { owner, container } of containersOf(objects)) {
    for (const entry of container.env ?? []) {
      if (entry.value === undefined) {
        continue;
      }
      // A secret-like value must be assembled from references only, like the pooler URL.
      const literal = SECRET_NAME.test(entry.name) && !/\$\([A-Z_]+\)/.test(entry.value);
      if (literal || LITERAL_PASSWORD_URL.test(entry.value)) {
        problems.push(`${owner}: env ${entry.name} has a literal secret value`);
      }
    }
  }

  return problems;
};

const templateLabels = (object: K8sObject): Record<string, string> =>
  (object.spec?.template as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata
    ?.labels ?? {};

const selectorLabels = (object: K8sObject): Record<string, string> =>
  (object.spec?.selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels ?? {};

const databaseUrl = (container: Container) => container.env?.find((entry) => entry.name === "DATABASE_URL");

describe("infra/k8s without rendering", () => {
  it("every file parses as YAML, and no file holds a Secret object", () => {
    const files = yamlFiles(k8sRoot);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const objects = parseObjects(readFileSync(file, "utf8"));
      expect(objects.filter((object) => object.kind === "Secret")).toEqual([]);
    }
  });
});

const kubectlTitle = (title: string) =>
  kubectl ? title : `${title} (skipped: kubectl is not installed, so kustomize rendering is not proven here)`;

describe.skipIf(!kubectl)(kubectlTitle("infra/k8s rendered by kubectl kustomize"), () => {
  const variants: Record<string, () => string> = {
    base: () => renderK8s("base"),
    production: () => renderK8s("overlays/production"),
    "production + pgbouncer": () => renderComposed(["overlays/production"], ["components/pgbouncer"]),
    "production + nats": () => renderComposed(["overlays/production"], ["components/nats"]),
  };
  const rendered: Record<string, K8sObject[]> = {};

  beforeAll(() => {
    console.info(`kubectl: ${kubectl?.version}`);
    for (const [name, render] of Object.entries(variants)) {
      rendered[name] = parseObjects(render());
    }
  });

  const each = (check: (objects: K8sObject[], variant: string) => void) => () => {
    for (const [variant, objects] of Object.entries(rendered)) {
      check(objects, variant);
    }
  };

  it(
    "renders the api and worker Deployments, Service, Ingress, PDBs, HPA, migration Job and ConfigMap",
    each((objects) => {
      const kinds = objects.map((object) => `${object.kind}/${object.metadata.name}`);
      expect(kinds).toEqual(
        expect.arrayContaining([
          "Deployment/agora-api",
          "Deployment/agora-worker",
          "Service/agora-api",
          "Ingress/agora-api",
          "PodDisruptionBudget/agora-api",
          "PodDisruptionBudget/agora-worker",
          "HorizontalPodAutoscaler/agora-api",
          "Job/agora-migrate",
          "ServiceAccount/agora",
        ]),
      );
      expect(objects.filter((object) => object.kind === "ConfigMap")).toHaveLength(1);
    }),
  );

  it("passes the Kubernetes OpenAPI schemas and rejects unknown fields (kubernetes-models)", () => {
    for (const [variant, objects] of Object.entries(rendered)) {
      expect({ variant, problems: validateObjects(objects) }).toEqual({ variant, problems: [] });
      expect({ variant, problems: typecheckObjects(objects) }).toEqual({ variant, problems: [] });
    }
    const unchecked = Object.values(rendered)
      .flat()
      .filter((object) => !hasModel(object))
      .map((object) => `${object.apiVersion} ${object.kind}`);
    // Only the CloudNativePG custom resources lack a schema here.
    expect([...new Set(unchecked)].sort()).toEqual([
      "postgresql.cnpg.io/v1 Cluster",
      "postgresql.cnpg.io/v1 Pooler",
      "postgresql.cnpg.io/v1 ScheduledBackup",
    ]);
  }, 60_000);

  it("the schema checks can fail: a wrong type and a misspelt field are reported", () => {
    const deployment = structuredClone(find(rendered.base ?? [], "Deployment", "agora-api"));
    const container = podSpec(deployment)?.containers[0] as Container & Record<string, unknown>;
    container.ports = [{ name: "http", containerPort: "8080" as unknown as number }];
    expect(validateObjects([deployment])).toEqual([expect.stringContaining("containerPort must be integer")]);
    const misspelt = structuredClone(find(rendered.base ?? [], "Deployment", "agora-api"));
    const misspeltContainer = podSpec(misspelt)?.containers[0] as Container & Record<string, unknown>;
    misspeltContainer.readinesProbe = misspeltContainer.readinessProbe;
    expect(validateObjects([misspelt])).toEqual([]);
    expect(typecheckObjects([misspelt])).toEqual([expect.stringContaining("readinesProbe")]);
  }, 60_000);

  it(
    "holds no literal secrets: no Secret objects, secret-like settings only through references",
    each((objects, variant) => {
      expect({ variant, problems: literalSecrets(objects) }).toEqual({ variant, problems: [] });
    }),
  );

  it("the secret check can fail: a Secret object, a secret in a ConfigMap, a literal env value", () => {
    const objects = structuredClone(rendered.production ?? []);
    const configMap = objects.find((object) => object.kind === "ConfigMap");
    if (configMap?.data) {
      configMap.data.SMTP_PASSWORD = "hunter2";
    }
    const api = podSpec(find(objects, "Deployment", "agora-api"))?.containers[0];
    api?.env?.push({ name: "TOKEN_SECRET", value: "a-literal-secret-of-at-least-32-bytes" });
    api?.env?.push({ name: "SOME_URL", value: "postgresql://agora:hunter2@db:5432/agora" });
    objects.push({ apiVersion: "v1", kind: "Secret", metadata: { name: "agora-secrets" } });
    expect(literalSecrets(objects)).toEqual([
      expect.stringContaining("SMTP_PASSWORD belongs in a Secret"),
      "Secret agora-secrets: secrets are created out of band, never rendered",
      expect.stringContaining("TOKEN_SECRET"),
      expect.stringContaining("SOME_URL"),
    ]);
  });

  it(
    "references only ConfigMaps it renders and the documented external Secrets",
    each((objects) => {
      const configMaps = new Set(objects.filter((o) => o.kind === "ConfigMap").map((o) => o.metadata.name));
      const referencedConfigMaps = new Set<string>();
      const referencedSecrets = new Set<string>();
      for (const { container } of containersOf(objects)) {
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef) {
            referencedConfigMaps.add(source.configMapRef.name);
          }
          if (source.secretRef) {
            referencedSecrets.add(source.secretRef.name);
          }
        }
        for (const entry of container.env ?? []) {
          if (entry.valueFrom?.secretKeyRef) {
            referencedSecrets.add(entry.valueFrom.secretKeyRef.name);
          }
          if (entry.valueFrom?.configMapKeyRef) {
            referencedConfigMaps.add(entry.valueFrom.configMapKeyRef.name);
          }
        }
      }
      for (const workload of workloads(objects)) {
        for (const volume of podSpec(workload)?.volumes ?? []) {
          if (volume.secret) {
            referencedSecrets.add(volume.secret.secretName);
          }
        }
      }
      for (const ingress of objects.filter((object) => object.kind === "Ingress")) {
        for (const tls of (ingress.spec?.tls as Array<{ secretName: string }> | undefined) ?? []) {
          referencedSecrets.add(tls.secretName);
        }
      }
      expect(referencedConfigMaps.size).toBeGreaterThan(0);
      for (const name of referencedConfigMaps) {
        expect(configMaps).toContain(name);
      }
      expect([...referencedSecrets].filter((name) => !EXTERNAL_SECRETS.includes(name))).toEqual([]);
      expect(referencedSecrets).toContain("agora-secrets");
    }),
  );

  it(
    "wires Service, Ingress, HPA and PDBs to what exists",
    each((objects) => {
      const api = find(objects, "Deployment", "agora-api");
      const apiLabels = templateLabels(api);
      for (const deployment of objects.filter((object) => object.kind === "Deployment")) {
        expect(Object.keys(selectorLabels(deployment)).length).toBeGreaterThan(0);
        expect(templateLabels(deployment)).toMatchObject(selectorLabels(deployment));
      }
      const service = find(objects, "Service", "agora-api");
      const serviceSelector = (service.spec?.selector as Record<string, string> | undefined) ?? {};
      expect(Object.keys(serviceSelector).length).toBeGreaterThan(0);
      expect(apiLabels).toMatchObject(serviceSelector);
      const servicePorts = (service.spec?.ports as Array<{ name: string; targetPort: string }>) ?? [];
      const containerPorts = podSpec(api)?.containers[0]?.ports?.map((port) => port.name) ?? [];
      for (const port of servicePorts) {
        expect(containerPorts).toContain(port.targetPort);
      }
      const ingress = find(objects, "Ingress", "agora-api");
      const rules = ingress.spec?.rules as
        | Array<{
            http?: { paths?: Array<{ backend?: { service?: { name: string; port: { name: string } } } }> };
          }>
        | undefined;
      const backend = rules?.[0]?.http?.paths?.[0]?.backend?.service;
      expect(backend).toBeDefined();
      expect(backend?.name).toBe(service.metadata.name);
      expect(servicePorts.map((port) => port.name)).toContain(backend?.port.name);

      const hpa = find(objects, "HorizontalPodAutoscaler", "agora-api");
      expect(hpa.spec?.scaleTargetRef).toEqual({
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: "agora-api",
      });
      expect(hpa.spec?.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec?.metrics).toEqual([
        expect.objectContaining({ type: "Resource", resource: expect.objectContaining({ name: "cpu" }) }),
      ]);
      // The HPA owns the API's replica count; a fixed one would fight it on every apply.
      expect(api.spec?.replicas).toBeUndefined();

      for (const name of ["agora-api", "agora-worker"]) {
        const pdb = find(objects, "PodDisruptionBudget", name);
        const deployment = find(objects, "Deployment", name);
        expect(Object.keys(selectorLabels(pdb)).length).toBeGreaterThan(0);
        expect(templateLabels(deployment)).toMatchObject(selectorLabels(pdb));
      }
    }),
  );

  it(
    "probes the API's /ready for readiness and /health for liveness, and the worker's on its health port",
    each((objects) => {
      const api = podSpec(find(objects, "Deployment", "agora-api"))?.containers[0];
      expect(api?.readinessProbe?.httpGet).toEqual({ path: "/ready", port: "http" });
      expect(api?.livenessProbe?.httpGet).toEqual({ path: "/health", port: "http" });
      expect(api?.ports).toEqual([
        { name: "http", containerPort: 8080, protocol: "TCP" },
        { name: "metrics", containerPort: 9090, protocol: "TCP" },
      ]);
      const worker = podSpec(find(objects, "Deployment", "agora-worker"))?.containers[0];
      expect(worker?.ports).toEqual([{ name: "metrics", containerPort: 9091, protocol: "TCP" }]);
      expect(worker?.livenessProbe?.httpGet).toEqual({ path: "/health", port: "metrics" });
      expect(worker?.readinessProbe?.httpGet).toEqual({ path: "/ready", port: "metrics" });
      const configMap = objects.find((object) => object.kind === "ConfigMap");
      expect(configMap?.data?.WORKER_HEALTH_PORT).toBe("9091");
    }),
  );

  it(
    "migrates with the same command as compose, keeping the image's tini ENTRYPOINT",
    each((objects) => {
      const compose = parseYaml<{ services: { migrate: { command: string[] } } }>(
        readRepoFile("infra/docker-compose.yml"),
      );
      const job = find(objects, "Job", "agora-migrate");
      const container = podSpec(job)?.containers[0];
      expect(container?.args).toEqual(compose.services.migrate.command);
      expect(container?.image).toMatch(/agora[/-]api/);
      expect(job.spec?.template).toMatchObject({ spec: { restartPolicy: "Never" } });
      for (const { owner, container: each } of containersOf(objects)) {
        expect({ owner, command: each.command }).toEqual({ owner, command: undefined });
      }
    }),
  );

  it(
    "runs every pod as uid 1000 on a read-only root, without privilege escalation or capabilities, with requests and limits",
    each((objects) => {
      for (const workload of workloads(objects)) {
        const spec = podSpec(workload);
        expect(spec?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
        expect(spec?.serviceAccountName).toBe("agora");
        for (const container of spec?.containers ?? []) {
          expect(container.securityContext).toEqual({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ["ALL"] },
          });
          expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(["cpu", "memory"]);
          expect(container.resources?.limits).toHaveProperty("memory");
        }
      }
    }),
  );

  it(
    "exposes no metrics port through a Service or an Ingress; the API serves /metrics on METRICS_PORT",
    each((objects) => {
      const metricsPorts = new Set<string | number>();
      for (const workload of workloads(objects)) {
        for (const container of podSpec(workload)?.containers ?? []) {
          for (const port of container.ports ?? []) {
            if (port.name === "metrics") {
              metricsPorts.add(port.name);
              metricsPorts.add(port.containerPort);
            }
          }
        }
      }
      expect([...metricsPorts].sort()).toEqual([9090, 9091, "metrics"].sort());
      const configMap = objects.find((object) => object.kind === "ConfigMap");
      expect(configMap?.data?.METRICS_PORT).toBe("9090");
      const exposed: string[] = [];
      for (const service of objects.filter((object) => object.kind === "Service")) {
        for (const port of (service.spec?.ports as Array<{
          name?: string;
          port: number;
          targetPort?: string | number;
        }>) ?? []) {
          if (
            metricsPorts.has(port.targetPort ?? port.port) ||
            metricsPorts.has(port.port) ||
            port.name === "metrics"
          ) {
            exposed.push(`Service ${service.metadata.name} port ${port.name ?? port.port}`);
          }
        }
      }
      for (const ingress of objects.filter((object) => object.kind === "Ingress")) {
        for (const match of JSON.stringify(ingress.spec).matchAll(
          /"port":\{"(?:name|number)":"?([^"}]+)"?\}/g,
        )) {
          const port = match[1] ?? "";
          if (metricsPorts.has(port) || metricsPorts.has(Number(port))) {
            exposed.push(`Ingress ${ingress.metadata.name} port ${port}`);
          }
          // The Service port an Ingress names must not lead to a metrics port either.
        }
      }
      expect(exposed).toEqual([]);
    }),
  );

  it(
    "admits only the ingress controller to the API's http port and Prometheus to the metrics ports",
    each((objects) => {
      const policy = (name: string) =>
        find(objects, "NetworkPolicy", name).spec as {
          podSelector: unknown;
          policyTypes: string[];
          ingress?: Array<{
            from: Array<{ namespaceSelector?: { matchLabels: Record<string, string> } }>;
            ports: Array<{ port: string }>;
          }>;
        };
      const api = policy("agora-api");
      expect(api.podSelector).toEqual({ matchLabels: { "app.kubernetes.io/name": "agora-api" } });
      expect(api.policyTypes).toEqual(["Ingress"]);
      expect(
        api.ingress?.map((rule) => [
          rule.from.map((peer) => peer.namespaceSelector?.matchLabels["kubernetes.io/metadata.name"]),
          rule.ports.map((port) => port.port),
        ]),
      ).toEqual([
        [["ingress-nginx"], ["http"]],
        [["monitoring"], ["metrics"]],
      ]);
      expect(policy("agora-worker").ingress?.map((rule) => rule.ports.map((port) => port.port))).toEqual([
        ["metrics"],
      ]);
      expect(policy("agora-migrate").ingress).toBeUndefined();
    }),
  );

  it(
    "keeps WebSockets open through the ingress-nginx Ingress",
    each((objects) => {
      const ingress = find(objects, "Ingress", "agora-api");
      const annotations = (ingress.metadata as { annotations?: Record<string, string> }).annotations ?? {};
      expect(ingress.spec?.ingressClassName).toBe("nginx");
      expect(Number(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"])).toBeGreaterThanOrEqual(
        3600,
      );
      expect(Number(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"])).toBeGreaterThanOrEqual(
        3600,
      );
    }),
  );

  it("production: namespace agora, registry images, two workers, the runtime role for the pods and the owner for migrations, TLS required", () => {
    const objects = rendered.production ?? [];
    for (const object of objects) {
      expect({
        object: `${object.kind}/${object.metadata.name}`,
        namespace: object.metadata.namespace,
      }).toMatchObject({
        namespace: "agora",
      });
    }
    for (const { owner, container } of containersOf(objects)) {
      expect(container.image).toMatch(/^registry\.example\.com\/agora\/(api|worker):\d+\.\d+\.\d+$/);
      expect(databaseUrl(container)?.value).toBe(
        "postgresql://$(AGORA_DB_USER):$(AGORA_DB_PASSWORD)@agora-pg-rw:5432/agora?sslmode=require",
      );
      // The migration Job is the schema owner; the API and the worker the runtime role (rows only).
      const credentials = container.env?.find((entry) => entry.name === "AGORA_DB_USER")?.valueFrom
        ?.secretKeyRef;
      expect({ owner, secret: credentials?.name }).toEqual({
        owner,
        secret: owner === "Job agora-migrate" ? "agora-pg-app" : "agora-pg-runtime",
      });
      // sslmode=require verifies the server against CloudNativePG's CA, mounted from its Secret.
      expect(container.env?.find((entry) => entry.name === "NODE_EXTRA_CA_CERTS")?.value).toBe(
        "/etc/agora/pg-ca/ca.crt",
      );
    }
    expect(find(objects, "Deployment", "agora-worker").spec?.replicas).toBe(2);
    const cluster = find(objects, "Cluster", "agora-pg");
    expect(cluster.apiVersion).toBe("postgresql.cnpg.io/v1");
    expect(cluster.spec?.instances).toBeGreaterThanOrEqual(2);
    const initdb = (
      cluster.spec?.bootstrap as { initdb?: { owner: string; postInitApplicationSQL: string[] } } | undefined
    )?.initdb;
    expect(initdb?.owner).toBe("agora");
    expect(initdb?.postInitApplicationSQL).toContain("CREATE ROLE agora_runtime NOLOGIN");
    expect(cluster.spec?.managed).toEqual({
      roles: [
        expect.objectContaining({
          name: "agora_runtime",
          login: true,
          passwordSecret: { name: "agora-pg-runtime" },
        }),
      ],
    });
    // Continuous backup to an object store, and a nightly base backup.
    expect(cluster.spec?.backup).toMatchObject({
      retentionPolicy: expect.any(String),
      barmanObjectStore: { destinationPath: expect.stringMatching(/^s3:\/\//) },
    });
    expect(find(objects, "ScheduledBackup", "agora-pg-nightly").spec).toMatchObject({
      cluster: { name: "agora-pg" },
    });
    const configMap = objects.find((object) => object.kind === "ConfigMap");
    expect(configMap?.data).toMatchObject({
      APP_ENV: "production",
      WORKER: "off",
      READINESS_CHECKS: "enabled",
    });
    expect(configMap?.data?.S3_ENDPOINT).toMatch(/^https:\/\//);
    // Only the API, the worker and the migration Job (and the pooler) reach PostgreSQL.
    const database = find(objects, "NetworkPolicy", "agora-pg");
    expect(database.spec?.podSelector).toEqual({ matchLabels: { "cnpg.io/cluster": "agora-pg" } });
    expect(JSON.stringify(database.spec?.ingress)).toContain(
      '"values":["agora-api","agora-worker","agora-migrate"]',
    );
  });

  it("pgbouncer component: API and worker through a transaction-mode pooler; the migration Job stays direct", () => {
    const objects = rendered["production + pgbouncer"] ?? [];
    const pooler = find(objects, "Pooler", "agora-pg-pooler-rw");
    expect(pooler.spec).toMatchObject({
      cluster: { name: "agora-pg" },
      type: "rw",
      pgbouncer: { poolMode: "transaction", parameters: { max_prepared_statements: expect.any(String) } },
    });
    const parameters = (pooler.spec?.pgbouncer as { parameters?: Record<string, string> } | undefined)
      ?.parameters;
    expect(Number(parameters?.max_prepared_statements)).toBeGreaterThan(0);
    for (const name of ["agora-api", "agora-worker"]) {
      const container = podSpec(find(objects, "Deployment", name))?.containers[0];
      expect(databaseUrl(container as Container)?.value).toBe(
        "postgresql://$(AGORA_DB_USER):$(AGORA_DB_PASSWORD)@agora-pg-pooler-rw:5432/agora?sslmode=require",
      );
      // LISTEN needs a session: the realtime listener stays on the primary's direct service.
      expect(container?.env?.find((entry) => entry.name === "DATABASE_LISTEN_URL")?.value).toBe(
        "postgresql://$(AGORA_DB_USER):$(AGORA_DB_PASSWORD)@agora-pg-rw:5432/agora?sslmode=require",
      );
      const names = container?.env?.map((entry) => entry.name) ?? [];
      // Kubernetes expands $(VAR) only from variables listed before it.
      expect(names.indexOf("AGORA_DB_PASSWORD")).toBeLessThan(names.indexOf("DATABASE_URL"));
      expect(names.indexOf("AGORA_DB_PASSWORD")).toBeLessThan(names.indexOf("DATABASE_LISTEN_URL"));
    }
    const job = podSpec(find(objects, "Job", "agora-migrate"))?.containers[0];
    expect(databaseUrl(job as Container)?.value).toBe(
      "postgresql://$(AGORA_DB_USER):$(AGORA_DB_PASSWORD)@agora-pg-rw:5432/agora?sslmode=require",
    );
  });
  it("nats component: the ConfigMap moves the fan-out to an external NATS server; without it, PostgreSQL's", () => {
    const fanOut = (variant: string) => {
      const data = (rendered[variant] ?? []).find((object) => object.kind === "ConfigMap")?.data ?? {};

      return { mode: data.REALTIME_FANOUT, url: data.NATS_URL, subject: data.NATS_SUBJECT };
    };
    // The default (REALTIME_FANOUT unset is postgres) everywhere the component is not.
    for (const variant of ["base", "production", "production + pgbouncer"]) {
      expect({ variant, ...fanOut(variant) }).toEqual({
        variant,
        mode: undefined,
        url: undefined,
        subject: undefined,
      });
    }
    const { mode, url, subject } = fanOut("production + nats");
    expect(mode).toBe("nats");
    // A reference to a server run apart (no NATS workload here), without credentials in the ConfigMap.
    expect(url).toMatch(/^nats:\/\/[a-z0-9.-]+:4222$/);
    expect(subject).toBe("agora.chat");
    const objects = rendered["production + nats"] ?? [];
    expect(objects.filter((object) => JSON.stringify(object).includes("nats:"))).toHaveLength(1);
    // The pods read the merged map: its generated name (the hash changed with it) is what they reference.
    const configMap = objects.find((object) => object.kind === "ConfigMap");
    const api = podSpec(find(objects, "Deployment", "agora-api"))?.containers[0];
    expect(api?.envFrom).toContainEqual({ configMapRef: { name: configMap?.metadata.name } });
    expect(configMap?.metadata.name).not.toBe(
      rendered.production?.find((object) => object.kind === "ConfigMap")?.metadata.name,
    );
  });
});
