import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, testConfig, unsafeDefaultsWarning } from "./config";
import { settingNames } from "./settings";

const productionReady = {
  APP_ENV: "production",
  DATABASE_URL: "postgresql://agora@db.internal:5432/agora",
  TOKEN_SECRET: "x".repeat(32),
  RESEND_API_KEY: "re_123",
  MAIL_FROM: "Agora <no-reply@agora.example>",
  S3_ENDPOINT: "https://s3.example.com",
  S3_BUCKET: "media",
  S3_ACCESS_KEY_ID: "key",
  S3_SECRET_ACCESS_KEY: "secret",
  LISTING_PLAN_PRICE_AMOUNT: "990",
  LISTING_PLAN_CURRENCY: "usd",
  LISTING_PLAN_DURATION_DAYS: "30",
};

describe("configuration", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "agora-config-"));
    dirs.push(dir);

    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("starts in development with nothing set, generating the token secret once under DATA_DIR", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.ok).toBe(true);
    if (!first.ok) {
      return;
    }
    expect(first.config).toMatchObject({
      appEnv: "development",
      host: "0.0.0.0",
      port: 8080,
      databaseUrl: undefined,
      databasePoolMax: 10,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 2_592_000,
      refreshReuseGraceSeconds: 10,
      worker: "embedded",
      readinessChecks: false,
      rateLimitAuthPerIp: 100,
      listingPlan: undefined,
    });
    expect(Buffer.byteLength(first.config.tokenSecret)).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, "token-secret"), "utf8")).toBe(first.config.tokenSecret);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.ok && second.config.tokenSecret).toBe(first.config.tokenSecret);
  });

  it("refuses production without its dependencies, one line per missing item", () => {
    const result = loadConfig({ APP_ENV: "production", DATA_DIR: tempDir() });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors.map((line) => line.split(":")[0])).toEqual([
      "DATABASE_URL",
      "TOKEN_SECRET",
      "mail",
      "MAIL_FROM",
      "S3",
      "LISTING_PLAN_PRICE_AMOUNT, LISTING_PLAN_CURRENCY, LISTING_PLAN_DURATION_DAYS",
    ]);
  });

  it("refuses staging with a short secret, plain-http object store and an invalid plan", () => {
    const result = loadConfig({
      ...productionReady,
      APP_ENV: "staging",
      TOKEN_SECRET: "short",
      S3_ENDPOINT: "http://s3.example.com",
      LISTING_PLAN_DURATION_DAYS: "zero",
    });
    expect(result.ok ? [] : result.errors).toEqual([
      "TOKEN_SECRET: must be at least 32 bytes",
      "S3_ENDPOINT: must be an https:// URL in staging and production",
      "LISTING_PLAN_DURATION_DAYS: must be an integer from 1 to 3650",
    ]);
  });

  it("accepts a complete production configuration and enables readiness checks", () => {
    const result = loadConfig(productionReady);
    expect(result.ok).toBe(true);
    expect(result.ok && result.config).toMatchObject({
      readinessChecks: true,
      listingPlan: { priceAmount: 990, currency: "USD", durationDays: 30 },
      mail: { from: "Agora <no-reply@agora.example>", resendApiKey: "re_123" },
    });
  });

  it("reads the object store with its defaults (region, path style, a 10 s call timeout) and S3_TIMEOUT_MS", () => {
    const defaults = loadConfig(productionReady);
    expect(defaults.ok && defaults.config.s3).toEqual({
      endpoint: "https://s3.example.com",
      region: "us-east-1",
      bucket: "media",
      accessKeyId: "key",
      secretAccessKey: "secret",
      forcePathStyle: true,
    });
    expect(defaults.ok && defaults.config.timeouts.s3Ms).toBe(10_000);
    const tuned = loadConfig({ ...productionReady, S3_TIMEOUT_MS: "2500", S3_FORCE_PATH_STYLE: "false" });
    expect(tuned.ok && tuned.config.s3).toMatchObject({ forcePathStyle: false });
    expect(tuned.ok && tuned.config.timeouts.s3Ms).toBe(2500);
    const wrong = loadConfig({ ...productionReady, S3_TIMEOUT_MS: "5" });
    expect(wrong.ok ? [] : wrong.errors).toEqual(["S3_TIMEOUT_MS: must be an integer from 100 to 600000"]);
  });

  it("reads the pending account lifetime (48 h by default) and the verification link, and refuses bad ones", () => {
    const defaults = loadConfig(productionReady);
    expect(defaults.ok && [defaults.config.pendingAccountTtlSeconds, defaults.config.verifyEmailUrl]).toEqual(
      [172_800, "agora://verify-email"],
    );
    const set = loadConfig({
      ...productionReady,
      PENDING_ACCOUNT_TTL_SECONDS: "7200",
      VERIFY_EMAIL_URL: "https://agora.example.com/verify",
    });
    expect(set.ok && [set.config.pendingAccountTtlSeconds, set.config.verifyEmailUrl]).toEqual([
      7200,
      "https://agora.example.com/verify",
    ]);
    const wrong = loadConfig({
      ...productionReady,
      PENDING_ACCOUNT_TTL_SECONDS: "60",
      VERIFY_EMAIL_URL: "verify",
    });
    expect(wrong.ok ? [] : wrong.errors).toEqual([
      "PENDING_ACCOUNT_TTL_SECONDS: must be an integer from 3600 to 31536000",
      "VERIFY_EMAIL_URL: must be an absolute URL (https://… or an app scheme)",
    ]);
  });

  it("reads the pending-upload quota (100 uploads, 512 MiB by default; 0 = off) and refuses bad values", () => {
    const defaults = loadConfig(productionReady);
    expect(defaults.ok && defaults.config.mediaUploadQuota).toEqual({
      maxPending: 100,
      maxPendingBytes: 536_870_912,
    });
    const set = loadConfig({
      ...productionReady,
      MEDIA_PENDING_UPLOADS_PER_DAY: "0",
      MEDIA_PENDING_UPLOAD_BYTES_PER_DAY: "104857600",
    });
    expect(set.ok && set.config.mediaUploadQuota).toEqual({ maxPending: 0, maxPendingBytes: 104_857_600 });
    const wrong = loadConfig({
      ...productionReady,
      MEDIA_PENDING_UPLOADS_PER_DAY: "-1",
      MEDIA_PENDING_UPLOAD_BYTES_PER_DAY: "lots",
    });
    expect(wrong.ok ? [] : wrong.errors.map((line) => line.split(":")[0])).toEqual([
      "MEDIA_PENDING_UPLOADS_PER_DAY",
      "MEDIA_PENDING_UPLOAD_BYTES_PER_DAY",
    ]);
  });

  it("takes the LISTEN session's URL from DATABASE_LISTEN_URL, else DATABASE_URL", () => {
    const direct = loadConfig(productionReady);
    expect(direct.ok && direct.config.databaseListenUrl).toBe(productionReady.DATABASE_URL);
    const pooled = loadConfig({
      ...productionReady,
      DATABASE_URL: "postgresql://agora@pooler:5432/agora",
      DATABASE_LISTEN_URL: "postgresql://agora@primary:5432/agora",
    });
    expect(pooled.ok && [pooled.config.databaseUrl, pooled.config.databaseListenUrl]).toEqual([
      "postgresql://agora@pooler:5432/agora",
      "postgresql://agora@primary:5432/agora",
    ]);
    const wrong = loadConfig({ ...productionReady, DATABASE_LISTEN_URL: "mysql://primary/agora" });
    expect(wrong.ok ? [] : wrong.errors).toEqual([
      "DATABASE_LISTEN_URL: must be a postgres:// or postgresql:// URL",
    ]);
    const alone = loadConfig({ DATABASE_LISTEN_URL: "postgresql://primary/agora" });
    expect(alone.ok ? [] : alone.errors).toEqual([
      "DATABASE_LISTEN_URL: only with DATABASE_URL (the embedded database notifies in-process)",
    ]);
  });

  it("reads REALTIME_FANOUT: postgres by default; nats needs NATS_URL, its subject defaults to agora.chat", () => {
    const byDefault = loadConfig(productionReady);
    expect(byDefault.ok && byDefault.config.realtimeFanOut).toEqual({ kind: "postgres" });
    const nats = loadConfig({
      ...productionReady,
      REALTIME_FANOUT: "nats",
      NATS_URL: "nats://nats-1:4222,nats://nats-2:4222",
    });
    expect(nats.ok && nats.config.realtimeFanOut).toEqual({
      kind: "nats",
      url: "nats://nats-1:4222,nats://nats-2:4222",
      subject: "agora.chat",
    });
    const subject = loadConfig({
      ...productionReady,
      REALTIME_FANOUT: "nats",
      NATS_URL: "tls://nats:4222",
      NATS_SUBJECT: "agora.staging.chat",
    });
    expect(subject.ok && subject.config.realtimeFanOut).toMatchObject({ subject: "agora.staging.chat" });
    const missing = loadConfig({ ...productionReady, REALTIME_FANOUT: "nats" });
    expect(missing.ok ? [] : missing.errors).toEqual(["NATS_URL: required with REALTIME_FANOUT=nats"]);
    const wildcard = loadConfig({
      ...productionReady,
      REALTIME_FANOUT: "nats",
      NATS_URL: "nats://nats:4222",
      NATS_SUBJECT: "agora.>",
    });
    expect(wildcard.ok).toBe(false);
    const unknown = loadConfig({ ...productionReady, REALTIME_FANOUT: "redis" });
    expect(unknown.ok).toBe(false);
  });

  it("reads GUEST_LINK_BASE_URL (guest receipts' links): unset by default, https:// outside development", () => {
    const unset = loadConfig(productionReady);
    expect(unset.ok && unset.config.guestLinkBaseUrl).toBeUndefined();
    const set = loadConfig({ ...productionReady, GUEST_LINK_BASE_URL: "https://app.agora.example/" });
    expect(set.ok && set.config.guestLinkBaseUrl).toBe("https://app.agora.example");
    const plain = loadConfig({ ...productionReady, GUEST_LINK_BASE_URL: "http://app.agora.example" });
    expect(plain.ok ? [] : plain.errors).toEqual([
      "GUEST_LINK_BASE_URL: must be an https:// URL in staging and production",
    ]);
    const queried = loadConfig({ GUEST_LINK_BASE_URL: "https://app.agora.example/?a=1" });
    expect(queried.ok ? [] : queried.errors).toEqual([
      "GUEST_LINK_BASE_URL: must be an http:// or https:// URL without a query or fragment",
    ]);
  });

  it("accepts SMTP with credentials instead of Resend", () => {
    const { RESEND_API_KEY: _unused, ...rest } = productionReady;
    const result = loadConfig({ ...rest, SMTP_HOST: "smtp.example.com", SMTP_USER: "u", SMTP_PASSWORD: "p" });
    expect(result.ok && result.config.mail.smtp).toMatchObject({
      host: "smtp.example.com",
      port: 587,
      secure: false,
      requireTls: true,
    });
    const development = loadConfig({ DATA_DIR: tempDir(), SMTP_HOST: "127.0.0.1" });
    expect(development.ok && development.config.mail.smtp?.requireTls).toBe(false);
  });

  it("reads the abuse limits, with their defaults", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && defaults.config).toMatchObject({
      rateLimitRegisterPerEmail: 5,
      rateLimitResetPerEmail: 5,
      rateLimitGuestOrdersPerIp: 30,
      rateLimitGuestOrdersPerEmail: 10,
      passwordHashConcurrency: 2,
      passwordHashQueue: 256,
      sessionMaxAgeSeconds: 7_776_000,
      mail: { logBodies: false },
    });
    const set = loadConfig({
      DATA_DIR: tempDir(),
      RATE_LIMIT_GUEST_ORDERS_PER_IP: "0",
      PASSWORD_HASH_CONCURRENCY: "4",
      SESSION_MAX_AGE_SECONDS: "86400",
      MAIL_LOG_BODIES: "true",
    });
    expect(set.ok && set.config).toMatchObject({
      rateLimitGuestOrdersPerIp: 0,
      passwordHashConcurrency: 4,
      sessionMaxAgeSeconds: 86_400,
      mail: { logBodies: true },
    });
    const bad = loadConfig({ DATA_DIR: tempDir(), PASSWORD_HASH_CONCURRENCY: "0" });
    expect(bad.ok ? [] : bad.errors.map((line) => line.split(":")[0])).toEqual(["PASSWORD_HASH_CONCURRENCY"]);
  });

  it("warns when APP_ENV is unset and the server listens beyond loopback", () => {
    const unset = loadConfig({ DATA_DIR: tempDir() });
    expect(unset.ok && unset.config.appEnvExplicit).toBe(false);
    if (!unset.ok) {
      return;
    }
    expect(unsafeDefaultsWarning(unset.config)).toMatch(
      /^APP_ENV is not set and the server listens on 0\.0\.0\.0/,
    );
    expect(unsafeDefaultsWarning({ ...unset.config, host: "127.0.0.1" })).toBeUndefined();
    expect(unsafeDefaultsWarning({ ...unset.config, host: "::1" })).toBeUndefined();
    const explicit = loadConfig({ DATA_DIR: tempDir(), APP_ENV: "development" });
    expect(explicit.ok && unsafeDefaultsWarning(explicit.config)).toBeUndefined();
    expect(unsafeDefaultsWarning(testConfig({ host: "0.0.0.0" }))).toBeUndefined();
  });

  it("names malformed values", () => {
    const result = loadConfig({
      DATA_DIR: tempDir(),
      PORT: "http",
      WORKER: "sometimes",
      DATABASE_URL: "mysql://x",
    });
    expect(result.ok ? [] : result.errors.map((line) => line.split(":")[0]).sort()).toEqual([
      "DATABASE_URL",
      "PORT",
      "WORKER",
    ]);
  });

  it("turns push on only with both FCM values and an existing credentials file", () => {
    const dataDir = tempDir();
    const credentials = path.join(dataDir, "fcm.json");
    writeFileSync(credentials, "{}");
    const on = loadConfig({
      DATA_DIR: dataDir,
      FCM_PROJECT_ID: "agora-prod",
      FCM_CREDENTIALS_FILE: credentials,
    });
    expect(on.ok && on.config.fcm).toEqual({ projectId: "agora-prod", credentialsFile: credentials });
    const off = loadConfig({ DATA_DIR: dataDir });
    expect(off.ok && off.config.fcm).toBeUndefined();

    const half = loadConfig({ DATA_DIR: dataDir, FCM_PROJECT_ID: "agora-prod" });
    expect(half.ok ? [] : half.errors).toEqual([
      "FCM: FCM_PROJECT_ID and FCM_CREDENTIALS_FILE are required together",
    ]);
    const missing = path.join(dataDir, "nope.json");
    const absent = loadConfig({
      DATA_DIR: dataDir,
      FCM_PROJECT_ID: "agora-prod",
      FCM_CREDENTIALS_FILE: missing,
    });
    expect(absent.ok ? [] : absent.errors).toEqual([`FCM_CREDENTIALS_FILE: ${missing} does not exist`]);
  });

  it("has a default for every timeout, takes overrides, and refuses bounds that contradict each other", () => {
    const dataDir = tempDir();
    const defaults = loadConfig({ DATA_DIR: dataDir });
    expect(defaults.ok && defaults.config.timeouts).toEqual({
      databaseAcquireMs: 5_000,
      databaseStatementMs: 5_000,
      databaseExportStatementMs: 120_000,
      databaseIdleInTransactionMs: 15_000,
      databaseStartupMs: 300_000,
      mailMs: 10_000,
      pushMs: 10_000,
      s3Ms: 10_000,
      videoMs: 5_000,
    });
    const tuned = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_ACQUIRE_TIMEOUT_MS: "2000",
      DATABASE_STATEMENT_TIMEOUT_MS: "3000",
      DATABASE_STARTUP_TIMEOUT_MS: "0",
      MAIL_TIMEOUT_MS: "4000",
    });
    expect(tuned.ok && tuned.config.timeouts).toMatchObject({
      databaseAcquireMs: 2_000,
      databaseStatementMs: 3_000,
      databaseStartupMs: 0,
      mailMs: 4_000,
    });
    const contradictory = loadConfig({
      DATA_DIR: dataDir,
      MAIL_TIMEOUT_MS: "20000",
      DATABASE_EXPORT_STATEMENT_TIMEOUT_MS: "1000",
      PUSH_TIMEOUT_MS: "soon",
    });
    expect(contradictory.ok).toBe(false);
    expect(!contradictory.ok && contradictory.errors).toEqual([
      "PUSH_TIMEOUT_MS: must be an integer from 100 to 600000",
    ]);
    const crossed = loadConfig({
      DATA_DIR: dataDir,
      MAIL_TIMEOUT_MS: "20000",
      DATABASE_EXPORT_STATEMENT_TIMEOUT_MS: "1000",
    });
    expect(!crossed.ok && crossed.errors).toEqual([
      "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: must be greater than MAIL_TIMEOUT_MS",
      "DATABASE_EXPORT_STATEMENT_TIMEOUT_MS: must not be less than DATABASE_STATEMENT_TIMEOUT_MS",
    ]);
  });

  it("pauses 5 s after SIGTERM in staging and production and not in development, unless SHUTDOWN_DELAY_MS says", () => {
    const development = loadConfig({ DATA_DIR: tempDir() });
    expect(development.ok && development.config.shutdownDelayMs).toBe(0);
    const production = loadConfig(productionReady);
    expect(production.ok && production.config.shutdownDelayMs).toBe(5_000);
    const none = loadConfig({ ...productionReady, SHUTDOWN_DELAY_MS: "0" });
    expect(none.ok && none.config.shutdownDelayMs).toBe(0);
    const tuned = loadConfig({ DATA_DIR: tempDir(), SHUTDOWN_DELAY_MS: "750" });
    expect(tuned.ok && tuned.config.shutdownDelayMs).toBe(750);
    const negative = loadConfig({ DATA_DIR: tempDir(), SHUTDOWN_DELAY_MS: "-1" });
    expect(!negative.ok && negative.errors).toEqual([
      "SHUTDOWN_DELAY_MS: must be an integer from 0 to 600000",
    ]);
  });

  it("leases outbox claims for 60 s unless OUTBOX_LEASE_SECONDS says, and never for less than one push or room call", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && defaults.config.outboxLeaseSeconds).toBe(60);
    const short = loadConfig({ DATA_DIR: tempDir(), OUTBOX_LEASE_SECONDS: "3", PUSH_TIMEOUT_MS: "1000" });
    expect(short.ok && short.config.outboxLeaseSeconds).toBe(3);
    const tooShort = loadConfig({ DATA_DIR: tempDir(), OUTBOX_LEASE_SECONDS: "5" });
    expect(!tooShort.ok && tooShort.errors).toEqual([
      "OUTBOX_LEASE_SECONDS: must be longer than PUSH_TIMEOUT_MS",
    ]);
    // VIDEO_TIMEOUT_MS (5 s by default) counts only where room calls are made: with VIDEO_*.
    const withoutVideo = loadConfig({
      DATA_DIR: tempDir(),
      OUTBOX_LEASE_SECONDS: "3",
      PUSH_TIMEOUT_MS: "1000",
    });
    expect(withoutVideo.ok).toBe(true);
    const shorterThanVideo = loadConfig({
      DATA_DIR: tempDir(),
      OUTBOX_LEASE_SECONDS: "3",
      PUSH_TIMEOUT_MS: "1000",
      VIDEO_URL: "wss://video.example.test",
      VIDEO_API_KEY: "APIkey",
      VIDEO_API_SECRET: "secret",
    });
    expect(!shorterThanVideo.ok && shorterThanVideo.errors).toEqual([
      "OUTBOX_LEASE_SECONDS: must be longer than VIDEO_TIMEOUT_MS",
    ]);
  });

  it("serves the worker's health on 9091 and fails its liveness after 60 s without a loop turn, never less than a push or a mail", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && [defaults.config.workerHealthPort, defaults.config.workerLivenessSeconds]).toEqual([
      9091, 60,
    ]);
    const set = loadConfig({
      DATA_DIR: tempDir(),
      WORKER_HEALTH_PORT: "0",
      WORKER_LIVENESS_SECONDS: "2",
      PUSH_TIMEOUT_MS: "1000",
      MAIL_TIMEOUT_MS: "1000",
    });
    expect(set.ok && [set.config.workerHealthPort, set.config.workerLivenessSeconds]).toEqual([0, 2]);
    const tooShort = loadConfig({ DATA_DIR: tempDir(), WORKER_LIVENESS_SECONDS: "10" });
    expect(!tooShort.ok && tooShort.errors).toEqual([
      "WORKER_LIVENESS_SECONDS: must be longer than PUSH_TIMEOUT_MS and MAIL_TIMEOUT_MS",
    ]);
  });

  it("serves /metrics on PORT unless METRICS_PORT names another port", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && defaults.config.metricsPort).toBeUndefined();
    const set = loadConfig({ DATA_DIR: tempDir(), METRICS_PORT: "9090" });
    expect(set.ok && set.config.metricsPort).toBe(9090);
    const same = loadConfig({ DATA_DIR: tempDir(), PORT: "9090", METRICS_PORT: "9090" });
    expect(!same.ok && same.errors).toEqual([
      "METRICS_PORT: must differ from PORT (unset it to serve /metrics on PORT)",
    ]);
  });

  it("names prepared statements unless DATABASE_PREPARED_STATEMENTS=unnamed", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && defaults.config.databasePreparedStatements).toBe("named");
    const unnamed = loadConfig({ DATA_DIR: tempDir(), DATABASE_PREPARED_STATEMENTS: "unnamed" });
    expect(unnamed.ok && unnamed.config.databasePreparedStatements).toBe("unnamed");
    const wrong = loadConfig({ DATA_DIR: tempDir(), DATABASE_PREPARED_STATEMENTS: "off" });
    expect(!wrong.ok && wrong.errors.map((line) => line.split(":")[0])).toEqual([
      "DATABASE_PREPARED_STATEMENTS",
    ]);
  });

  it("claims outbox batches of 200 events unless OUTBOX_BATCH_SIZE says (1 to 1000)", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && defaults.config.outboxBatchSize).toBe(200);
    const set = loadConfig({ DATA_DIR: tempDir(), OUTBOX_BATCH_SIZE: "25" });
    expect(set.ok && set.config.outboxBatchSize).toBe(25);
    const tooLarge = loadConfig({ DATA_DIR: tempDir(), OUTBOX_BATCH_SIZE: "5000" });
    expect(!tooLarge.ok && tooLarge.errors).toEqual(["OUTBOX_BATCH_SIZE: must be an integer from 1 to 1000"]);
  });

  it("runs two outbox claim loops per worker process unless OUTBOX_LOOPS says (1 to 16)", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.ok && defaults.config.outboxLoops).toBe(2);
    const one = loadConfig({ DATA_DIR: tempDir(), OUTBOX_LOOPS: "1" });
    expect(one.ok && one.config.outboxLoops).toBe(1);
    const none = loadConfig({ DATA_DIR: tempDir(), OUTBOX_LOOPS: "0" });
    expect(!none.ok && none.errors).toEqual(["OUTBOX_LOOPS: must be an integer from 1 to 16"]);
  });

  it("turns traces on only with OTEL_EXPORTER_OTLP_ENDPOINT, an http(s) URL", () => {
    const off = loadConfig({ DATA_DIR: tempDir() });
    expect(off.ok && off.config.otel).toBeUndefined();
    const on = loadConfig({ DATA_DIR: tempDir(), OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(on.ok && on.config.otel).toEqual({ endpoint: "http://collector:4318" });
    const wrong = loadConfig({ DATA_DIR: tempDir(), OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4317" });
    expect(!wrong.ok && wrong.errors).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL",
    ]);
  });

  it("coalesces identical listing searches unless the bench switch LISTINGS_COALESCE=off says not to", () => {
    const unset = loadConfig({ DATA_DIR: tempDir() });
    expect(unset.ok && unset.config.listingsCoalesce).toBe(true);
    const off = loadConfig({ DATA_DIR: tempDir(), LISTINGS_COALESCE: "off" });
    expect(off.ok && off.config.listingsCoalesce).toBe(false);
    const wrong = loadConfig({ DATA_DIR: tempDir(), LISTINGS_COALESCE: "no" });
    expect(!wrong.ok && wrong.errors[0]).toMatch(/^LISTINGS_COALESCE: /);
  });

  it("reads the LISTINGS_COALESCE bench switch: empty or unset coalesces, off does not, anything else is refused", () => {
    const coalesce = (value: string | undefined) => {
      const result = loadConfig({
        DATA_DIR: tempDir(),
        ...(value === undefined ? {} : { LISTINGS_COALESCE: value }),
      });

      return result.ok ? result.config.listingsCoalesce : "refused";
    };
    expect(coalesce(undefined)).toBe(true);
    expect(coalesce("")).toBe(true);
    expect(coalesce("on")).toBe(true);
    expect(coalesce("off")).toBe(false);
    expect(coalesce("no")).toBe("refused");
  });

  it("keeps 1,000 listing pages per process unless LISTINGS_CACHE_ENTRIES says otherwise (0: none)", () => {
    const entries = (value: string | undefined) => {
      const result = loadConfig({
        DATA_DIR: tempDir(),
        ...(value === undefined ? {} : { LISTINGS_CACHE_ENTRIES: value }),
      });

      return result.ok ? result.config.listingsCacheEntries : result.errors[0];
    };
    expect(entries(undefined)).toBe(1_000);
    expect(entries("")).toBe(1_000);
    expect(entries("0")).toBe(0);
    expect(entries("5000")).toBe(5_000);
    expect(entries("-1")).toMatch(/^LISTINGS_CACHE_ENTRIES: /);
    expect(entries("many")).toMatch(/^LISTINGS_CACHE_ENTRIES: /);
  });

  it("takes an empty value as unset, for every variable (an env file's `NAME=` line)", () => {
    const dataDir = tempDir();
    const kept = { DATA_DIR: dataDir, TOKEN_SECRET: "x".repeat(32) };
    const empty = Object.fromEntries(settingNames.map((name) => [name, " "]));
    const unset = loadConfig(kept);
    expect(unset.ok).toBe(true);
    expect(loadConfig({ ...empty, ...kept })).toEqual(unset);
  });

  it("splits ALLOWED_ORIGINS and honours READINESS_CHECKS", () => {
    const result = loadConfig({
      DATA_DIR: tempDir(),
      ALLOWED_ORIGINS: "https://a.example, https://b.example,",
      READINESS_CHECKS: "enabled",
    });
    expect(result.ok && result.config.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
    expect(result.ok && result.config.readinessChecks).toBe(true);
  });
});
