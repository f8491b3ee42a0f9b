// Each variable is declared once (settings.ts); this checks that what derives from the declarations
// agrees with them: the loader reads each one and nothing else, and the committed
// docs/configuration.md and infra/.env.example list each one as rendered. After a change:
// SETTINGS_WRITE=1 rewrites both files (pnpm --filter @agora/process settings:write).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeLimitKinds } from "@agora/domain/common/write-limits";
import { afterAll, describe, expect, it } from "vitest";
import { configFromEnv, loadConfig } from "./config";
import {
  type Env,
  envSchema,
  type SettingName,
  settingNames,
  settings,
  writeLimitVariable,
} from "./settings";
import {
  between,
  documents,
  exampleValue,
  SETTINGS_WRITE_COMMAND,
  variablesIn,
  WIDTH,
  withSection,
  writeLimitsDocument,
} from "./settings-documents";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (relative: string) => readFileSync(path.join(root, relative), "utf8");
const writing = process.env.SETTINGS_WRITE === "1";

/** Names that infra sets for other programs than Agora's (Node, and the pieces of a URL). */
const NOT_SETTINGS = [
  "NODE_ENV",
  "NODE_OPTIONS",
  "NODE_EXTRA_CA_CERTS",
  "AGORA_DB_USER",
  "AGORA_DB_PASSWORD",
];

const difference = (a: readonly string[], b: readonly string[]) => a.filter((name) => !b.includes(name));

describe.each(documents)("$path", (document) => {
  it(`is rendered from settings.ts (${SETTINGS_WRITE_COMMAND})`, () => {
    const file = read(document.path);
    if (writing) {
      writeFileSync(path.join(root, document.path), withSection(file, document));

      return;
    }
    const committed = between(file, document);
    expect(committed, `${document.path} lacks its lines ${document.begin} and ${document.end}`).toBeDefined();
    const rendered = document.render();
    if (committed === rendered) {
      return;
    }
    const listed = variablesIn(committed ?? "");
    const missing = difference(settingNames, listed);
    const unknown = difference(listed, settingNames);
    const committedLines = (committed ?? "").split("\n");
    const line = rendered.split("\n").findIndex((text, index) => text !== committedLines[index]);
    const problem =
      missing.length > 0 || unknown.length > 0
        ? `${missing.length > 0 ? `lacks ${missing.join(", ")}` : ""}${missing.length > 0 && unknown.length > 0 ? "; " : ""}${unknown.length > 0 ? `lists undeclared ${unknown.join(", ")}` : ""}`
        : `differs from the declarations at line ${line + 1} of its section, which should read ${JSON.stringify(rendered.split("\n")[line])}`;
    expect.fail(`${document.path} ${problem}. Run ${SETTINGS_WRITE_COMMAND} (and commit the file).`);
  });

  it.skipIf(writing)("names every declared variable once, in the declarations' order", () => {
    expect(variablesIn(between(read(document.path), document) ?? "")).toEqual(settingNames);
  });

  it("keeps every line within the terminal's width", () => {
    const wide = document
      .render()
      .split("\n")
      .filter((line) => line.length > WIDTH && !/^[A-Z][A-Z0-9_]*=/.test(line));
    expect(wide).toEqual([]);
  });
});

describe("settings.ts", () => {
  it("declares each write limit's variable, RATE_LIMIT_<KIND>_PER_HOUR, from the kinds", () => {
    for (const kind of writeLimitKinds) {
      expect(settings[writeLimitVariable(kind)]).toMatchObject({ group: "writeLimits" });
    }
    expect(settingNames.filter((name) => settings[name].group === "writeLimits")).toHaveLength(
      writeLimitKinds.length,
    );
  });

  it("keeps descriptions to one short line", () => {
    const long = settingNames.filter((name) => {
      const { description } = settings[name];
      const visible = description.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");

      return visible.includes("\n") || visible.length > 100 || /[.\s]$/.test(visible);
    });
    expect(long).toEqual([]);
  });

  it("leaves secrets empty in infra/.env.example unless the value is a placeholder", () => {
    const secrets = settingNames.filter((name) => settings[name].secret);
    expect(secrets.length).toBeGreaterThan(0);
    for (const name of secrets) {
      const value = exampleValue(settings[name]);
      expect({ name, placeholder: value === "" || value.includes("change-me") }).toEqual({
        name,
        placeholder: true,
      });
    }
  });
});

describe("the loader (config.ts)", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A value for each variable that turns on everything that reads it, valid as a whole. */
  const everything = (): Record<SettingName, string> => {
    const dir = mkdtempSync(path.join(tmpdir(), "agora-settings-"));
    dirs.push(dir);
    const credentials = path.join(dir, "fcm.json");
    writeFileSync(credentials, "{}");
    const samples: Partial<Record<SettingName, string>> = {
      APP_ENV: "production",
      DATA_DIR: dir,
      DATABASE_LISTEN_URL: "postgresql://agora@primary:5432/agora",
      TOKEN_SECRET: "x".repeat(32),
      RESEND_API_KEY: "re_123",
      SMTP_PASSWORD: "password",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      FCM_PROJECT_ID: "agora",
      FCM_CREDENTIALS_FILE: credentials,
      VIDEO_URL: "wss://video.example.com",
      VIDEO_API_KEY: "key",
      VIDEO_API_SECRET: "secret",
      REALTIME_FANOUT: "nats",
      NATS_URL: "nats://nats:4222",
      METRICS_PORT: "9090",
      GUEST_LINK_BASE_URL: "https://app.example.com",
      PUBLIC_API_URL: "https://api.example.com",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      PAYMENT_INSTRUCTIONS_WALLETONE_QR: "pay here",
      PAYMENT_INSTRUCTIONS_WALLETTWO_QR: "or here",
    };

    return Object.fromEntries(
      settingNames.map((name) => {
        const setting = settings[name];

        return [name, samples[name] || setting.example || setting.default || "set"];
      }),
    ) as Record<SettingName, string>;
  };

  it("reads every declared variable (one the Config never takes is missing from the loader)", () => {
    const parsed = envSchema.safeParse(everything());
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const read = new Set<string | symbol>();
    const watched = new Proxy(parsed.data as Env, {
      get: (target, name, receiver) => {
        read.add(name);

        return Reflect.get(target, name, receiver);
      },
    });
    const result = configFromEnv(watched, { appEnvExplicit: true });
    expect(result.ok ? [] : result.errors).toEqual([]);
    const unread = settingNames.filter((name) => !read.has(name));
    expect(unread, "declared in settings.ts, never read by configFromEnv (config.ts)").toEqual([]);
  });

  it("reads no variable that is not declared", () => {
    const source = read("packages/process/src/config.ts");
    const named = [
      ...source.matchAll(/\b(?:env|source|process\.env)\s*(?:\.\s*|\[\s*["'`])([A-Z][A-Z0-9_]*)\b/g),
    ].map((match) => match[1] ?? "");
    expect(named.length).toBeGreaterThan(50);
    expect(
      difference([...new Set(named)], settingNames),
      "read by config.ts, not declared in settings.ts",
    ).toEqual([]);
    // process.env is read in one place: loadConfig's default source, parsed whole by the schema.
    const code = source.split("\n").filter((line) => !/^\s*(?:\/\/|\/?\*)/.test(line));
    expect(code.filter((line) => line.includes("process.env"))).toEqual([
      expect.stringContaining("source: Record<string, string | undefined> = process.env"),
    ]);
  });

  it("refuses staging and production without each variable declared as required there", () => {
    const complete = everything();
    expect(loadConfig(complete)).toMatchObject({ ok: true });
    const required = settingNames.filter((name) => settings[name].requiredWhenStrict);
    expect(required).toEqual(expect.arrayContaining(["DATABASE_URL", "TOKEN_SECRET", "MAIL_FROM"]));
    for (const name of required) {
      const result = loadConfig({ ...complete, [name]: "" });
      const named = result.ok ? [] : result.errors.filter((line) => line.includes(name));
      expect({ name, refused: named.length > 0 }).toEqual({ name, refused: true });
    }
  });
});

describe("infra", () => {
  const yamlFiles = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        return yamlFiles(relative);
      }

      return entry.name.endsWith(".yaml") ? [relative] : [];
    });

  it("sets only declared variables: infra/k8s's ConfigMaps and env, infra/local.env and the Dockerfile's ENV", () => {
    const found: Array<{ file: string; name: string }> = [];
    for (const file of yamlFiles("infra/k8s")) {
      const text = read(file);
      for (const match of text.matchAll(/^\s*- ([A-Z][A-Z0-9_]*)=/gm)) {
        found.push({ file, name: match[1] ?? "" });
      }
      for (const match of text.matchAll(/^\s*- name: ([A-Z][A-Z0-9_]*)\s*$/gm)) {
        found.push({ file, name: match[1] ?? "" });
      }
    }
    for (const match of read("infra/local.env").matchAll(/^([A-Z][A-Z0-9_]*)=/gm)) {
      found.push({ file: "infra/local.env", name: match[1] ?? "" });
    }
    for (const instruction of read("infra/Dockerfile").matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)) {
      for (const match of (instruction[1] ?? "").matchAll(/\b([A-Z][A-Z0-9_]*)=/g)) {
        found.push({ file: "infra/Dockerfile", name: match[1] ?? "" });
      }
    }
    expect(found.length).toBeGreaterThan(30);
    const declared = new Set<string>([...settingNames, ...NOT_SETTINGS]);
    expect(
      found.filter(({ name }) => !declared.has(name)),
      "set by infra, not declared in packages/process/src/settings.ts",
    ).toEqual([]);
  });
});

describe(writeLimitsDocument.path, () => {
  it(`lists the write limits as declared (${SETTINGS_WRITE_COMMAND})`, () => {
    const file = read(writeLimitsDocument.path);
    if (writing) {
      writeFileSync(path.join(root, writeLimitsDocument.path), withSection(file, writeLimitsDocument));

      return;
    }
    const committed = between(file, writeLimitsDocument);
    expect(
      committed,
      `${writeLimitsDocument.path} differs from the write limits' declarations. Run ${SETTINGS_WRITE_COMMAND} (and commit the file).`,
    ).toBe(writeLimitsDocument.render());
  });

  it("names every kind's variable and at least one route of each kind that has an operation", () => {
    const rendered = writeLimitsDocument.render();
    for (const kind of writeLimitKinds) {
      expect(rendered).toContain(writeLimitVariable(kind));
    }
    expect(rendered).not.toContain("no route yet");
  });
});

describe("turbo.json", () => {
  it("passes every declared variable through to the tasks it runs (globalPassThroughEnv)", () => {
    const patterns = (JSON.parse(read("turbo.json")) as { globalPassThroughEnv: string[] })
      .globalPassThroughEnv;
    const passes = (name: string) =>
      patterns.some((pattern) =>
        pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
      );
    expect(
      settingNames.filter((name) => !passes(name)),
      "declared in packages/process/src/settings.ts, not passed through by turbo.json: a test or start run through turbo would not see it",
    ).toEqual([]);
  });
});
