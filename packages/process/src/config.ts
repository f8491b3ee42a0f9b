// The only module that reads process.env. Everything else receives the frozen Config. Each variable
// is declared once, in settings.ts (name, schema and default, group, description); this module maps
// the parsed variables to the Config and applies the rules that span several of them.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type WriteLimitKind, writeLimitKinds } from "@agora/domain/common/write-limits";
import type { UploadQuota } from "@agora/domain/media/upload-quota";
import {
  type appEnvs,
  DEFAULT_SHUTDOWN_DELAY_MS,
  DEVELOPMENT_MAIL_FROM,
  type Env,
  envSchema,
  LISTING_PLAN_MAX_DAYS,
  writeLimitVariable,
} from "./settings";

export type AppEnvName = (typeof appEnvs)[number];

export type MailConfig = {
  from: string;
  resendApiKey: string | undefined;
  smtp:
    | {
        host: string;
        port: number;
        user: string | undefined;
        password: string | undefined;
        secure: boolean;
        /** STARTTLS is mandatory (staging and production): a relay that does not offer it fails the send. */
        requireTls: boolean;
      }
    | undefined;
  /** The memory mailer (no provider, development) writes mail bodies, codes included, to the log. */
  logBodies: boolean;
};

export type S3Config = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

export type ListingPlan = { priceAmount: number; currency: string; durationDays: number };

/** How long anything may wait on a dependency, in milliseconds (docs/configuration.md). */
export type Timeouts = Readonly<{
  /** Waiting for a database connection (pool slot and connect); past it, 503. */
  databaseAcquireMs: number;
  /** Per statement on the request path (PostgreSQL `statement_timeout`); past it, 503. */
  databaseStatementMs: number;
  /** Per statement in an export's transaction (`Sql.transaction(work, { statementTimeoutMs })`). */
  databaseExportStatementMs: number;
  /** PostgreSQL ends a transaction idle this long; above the mail timeout (see timeoutErrors). */
  databaseIdleInTransactionMs: number;
  /** Start-up waits this long for an unreachable database, then exits 1; 0 waits forever. */
  databaseStartupMs: number;
  /** One mail handed to the provider, whole (SMTP or Resend). */
  mailMs: number;
  /** One push multicast to FCM. */
  pushMs: number;
  /** One object-store call (HEAD, GET, PUT, COPY, DELETE), its retry included: every S3 adapter call. */
  s3Ms: number;
  /** One call to the video service's RoomService (DeleteRoom, RemoveParticipant), as a whole. */
  videoMs: number;
}>;

/** Caps on a process's realtime sockets (REALTIME_SOCKETS_*, REALTIME_MAX_SOCKETS). */
export type RealtimeSocketLimits = Readonly<{
  /** One session's sockets on one conversation. */
  perConversation: number;
  /** One session's sockets across conversations. */
  perSession: number;
  /** One user's sockets across sessions and conversations. */
  perUser: number;
  /** Every socket of the process. */
  max: number;
}>;

export type Config = Readonly<{
  appEnv: AppEnvName;
  /** False when APP_ENV was not set and `development` is only the default. */
  appEnvExplicit: boolean;
  host: string;
  port: number;
  databaseUrl: string | undefined;
  /**
   * Where the LISTEN sessions connect (chat's realtime fan-out and the outbox worker's wake-up):
   * DATABASE_URL unless set (a transaction-mode pooler in DATABASE_URL cannot carry LISTEN, so it
   * must then point at PostgreSQL or a session pool).
   */
  databaseListenUrl: string | undefined;
  dataDir: string;
  /**
   * `named`: the repositories' statements are named prepared statements, parsed once per
   * connection. `unnamed`: every statement is sent unnamed (parsed each time), for a pooler in
   * transaction mode that does not keep prepared statements.
   */
  databasePreparedStatements: "named" | "unnamed";
  databasePoolMax: number;
  timeouts: Timeouts;
  tokenSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  refreshReuseGraceSeconds: number;
  mail: MailConfig;
  s3: S3Config | undefined;
  listingPlan: ListingPlan | undefined;
  paymentInstructions: { walletone_qr: string | undefined; wallettwo_qr: string | undefined };
  /**
   * Where guests' receipt mails link to (GUEST_LINK_BASE_URL: the app or web page that opens a
   * guest order, `<base>/guest/orders/<id>#token=…`); without it no receipts are mailed.
   */
  guestLinkBaseUrl: string | undefined;
  fcm: { projectId: string; credentialsFile: string } | undefined;
  video: { url: string; apiKey: string; apiSecret: string } | undefined;
  allowedOrigins: string[];
  /**
   * The realtime sockets a process holds: per session on one conversation, per session, per user
   * (429 past one), and in all (the upgrade is accepted and closed with 1013).
   */
  realtimeSockets: RealtimeSocketLimits;
  /**
   * How API processes hear each other's chat changes (REALTIME_FANOUT): `postgres`, pg_notify in
   * each writing statement and LISTEN; or `nats`, published to NATS_URL on NATS_SUBJECT after the
   * commit, with no NOTIFY (docs/decisions/realtime-fan-out.md).
   */
  realtimeFanOut: { kind: "postgres" } | { kind: "nats"; url: string; subject: string };
  readinessChecks: boolean;
  worker: "embedded" | "off";
  /** How long an outbox claim holds its events before another worker may take them again. */
  outboxLeaseSeconds: number;
  /** Events one claim of the outboxLoops takes (and delivers together: their inbox rows in one statement). */
  outboxBatchSize: number;
  /** Outbox claim loops per process (batches in flight at once), besides the uploads' own loop. */
  outboxLoops: number;
  /**
   * Uploaded images processed at once per process (also how many the uploads' own claim loop takes
   * at a time), and the largest pixel count decoded (a larger image is rejected from its header,
   * never decoded).
   */
  mediaProcessing: { concurrency: number; maxInputPixels: number };
  /**
   * Pending uploads (requested, not yet taken by a record, within 24 hours) one account may have:
   * their count and their declared bytes (0 = off); past either, 429 on the upload request.
   */
  mediaUploadQuota: UploadQuota;
  /**
   * The API's separate metrics listener: when set, `/metrics` is served there (on `host`) and the
   * main port answers it 404, so a balancer routing every path cannot publish it.
   */
  metricsPort: number | undefined;
  /** The worker process's health and metrics listener (`/health`, `/ready`, `/metrics`); 0 = any free port. */
  workerHealthPort: number;
  /** The worker's `/health` fails once a claim loop has not turned for this long. */
  workerLivenessSeconds: number;
  /**
   * After SIGTERM, how long the API keeps serving with `/ready` at 503 (and `Connection: close`)
   * before it stops accepting, so a balancer polling `/ready` moves traffic away first.
   */
  shutdownDelayMs: number;
  /** OpenTelemetry traces go to this OTLP/HTTP endpoint (`/v1/traces` is appended); unset = none. */
  otel: { endpoint: string } | undefined;
  rateLimitAuthPerIp: number;
  rateLimitRegisterPerEmail: number;
  rateLimitResetPerEmail: number;
  /** A second code resend for one address (as given, account or not) within this answers 429. */
  resendCooldownSeconds: number;
  /** The longest a chat user whose API process died still shows online (their sockets' rows expire). */
  presenceTimeoutSeconds: number;
  /** Sign-in tries per email from one client address (IPv6 /64) per 15 minutes, then 429. */
  loginFailuresPerClient: number;
  /** Wrong passwords per email from all clients per 15 minutes that mail the owner a notice (0 = none). */
  loginFailureNoticePerEmail: number;
  rateLimitGuestOrdersPerIp: number;
  rateLimitGuestOrdersPerEmail: number;
  /** What a member may create per hour, per kind (`RATE_LIMIT_<KIND>_PER_HOUR`; 0 = off). */
  writeLimitsPerHour: Record<WriteLimitKind, number>;
  passwordHashConcurrency: number;
  passwordHashQueue: number;
  sessionMaxAgeSeconds: number;
  /** A registration never verified is removed this long after it was made (PENDING_ACCOUNT_TTL_SECONDS). */
  pendingAccountTtlSeconds: number;
  /** The verification mail's link (VERIFY_EMAIL_URL), completed with `user_id` and `code`. */
  verifyEmailUrl: string;
  /** PUBLIC_API_URL without a trailing slash: the base of mailed links to API routes (the data export's). */
  publicApiUrl: string | undefined;
  /** The email-change undo link (EMAIL_UNDO_URL), completed with `token`. */
  emailUndoUrl: string;
  trustProxy: boolean;
  logLevel: string;
  /** Identical public listing searches in flight share one query (LISTINGS_COALESCE=off: not; a bench switch). */
  listingsCoalesce: boolean;
  /** Public listing pages kept per process, each served only while the catalog is unchanged (0: none). */
  listingsCacheEntries: number;
}>;

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

const isStrict = (appEnv: AppEnvName) => appEnv === "staging" || appEnv === "production";

const parsePlan = (env: Env, errors: string[]): ListingPlan | undefined => {
  const {
    LISTING_PLAN_PRICE_AMOUNT: price,
    LISTING_PLAN_CURRENCY: currency,
    LISTING_PLAN_DURATION_DAYS: days,
  } = env;
  if (price === undefined && currency === undefined && days === undefined) {
    return undefined;
  }
  const before = errors.length;
  const amount = Number(price);
  if (price === undefined || !Number.isSafeInteger(amount) || amount < 0) {
    errors.push("LISTING_PLAN_PRICE_AMOUNT: must be a non-negative integer (minor units)");
  }
  if (currency === undefined || !/^[A-Za-z]{3}$/.test(currency)) {
    errors.push("LISTING_PLAN_CURRENCY: must be a three-letter currency code");
  }
  const duration = Number(days);
  if (days === undefined || !Number.isInteger(duration) || duration < 1 || duration > LISTING_PLAN_MAX_DAYS) {
    errors.push(`LISTING_PLAN_DURATION_DAYS: must be an integer from 1 to ${LISTING_PLAN_MAX_DAYS}`);
  }

  return errors.length === before
    ? { priceAmount: amount, currency: (currency ?? "").toUpperCase(), durationDays: duration }
    : undefined;
};

const timeoutsOf = (env: Env): Timeouts =>
  Object.freeze({
    databaseAcquireMs: env.DATABASE_ACQUIRE_TIMEOUT_MS,
    databaseStatementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseExportStatementMs: env.DATABASE_EXPORT_STATEMENT_TIMEOUT_MS,
    databaseIdleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    databaseStartupMs: env.DATABASE_STARTUP_TIMEOUT_MS,
    mailMs: env.MAIL_TIMEOUT_MS,
    pushMs: env.PUSH_TIMEOUT_MS,
    s3Ms: env.S3_TIMEOUT_MS,
    videoMs: env.VIDEO_TIMEOUT_MS,
  });

/** Bounds that only make sense together. */
const timeoutErrors = (timeouts: Timeouts): string[] => {
  const errors: string[] = [];
  // No mail is sent inside a transaction (the code or account is written first, then mailed), so
  // this guards no current path: it is a margin, kept so that a mail sent inside a transaction
  // could never outlive it and leave a mailed code that was never stored (docs/operations.md,
  // "Mail down or hanging").
  if (timeouts.databaseIdleInTransactionMs <= timeouts.mailMs) {
    errors.push("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: must be greater than MAIL_TIMEOUT_MS");
  }
  if (timeouts.databaseExportStatementMs < timeouts.databaseStatementMs) {
    errors.push("DATABASE_EXPORT_STATEMENT_TIMEOUT_MS: must not be less than DATABASE_STATEMENT_TIMEOUT_MS");
  }

  return errors;
};

/** Development and test get a secret generated once and kept under DATA_DIR. */
const developmentSecret = (dataDir: string): string => {
  const file = path.join(dataDir, "token-secret");
  if (existsSync(file)) {
    return readFileSync(file, "utf8").trim();
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });

  return secret;
};

/**
 * Reads and validates the configuration (docs/configuration.md). Staging and production refuse to
 * start without their dependencies; every problem is reported on its own line.
 */
export const loadConfig = (source: Record<string, string | undefined> = process.env): ConfigResult => {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    };
  }

  return configFromEnv(parsed.data as Env, { appEnvExplicit: (source.APP_ENV ?? "").trim() !== "" });
};

/**
 * The parsed variables as the Config, with the rules that span several of them. Exported for
 * settings.test.ts, which checks that it reads every declared variable.
 */
export const configFromEnv = (env: Env, { appEnvExplicit }: { appEnvExplicit: boolean }): ConfigResult => {
  const errors: string[] = [];
  const strict = isStrict(env.APP_ENV);
  const dataDir = path.resolve(env.DATA_DIR);

  if (strict && !env.DATABASE_URL) {
    errors.push(
      "DATABASE_URL: required in staging and production (the embedded database is for development)",
    );
  }
  if (env.DATABASE_LISTEN_URL && !env.DATABASE_URL) {
    errors.push("DATABASE_LISTEN_URL: only with DATABASE_URL (the embedded database notifies in-process)");
  }
  let realtimeFanOut: Config["realtimeFanOut"] = { kind: "postgres" };
  if (env.REALTIME_FANOUT === "nats") {
    if (env.NATS_URL) {
      realtimeFanOut = { kind: "nats", url: env.NATS_URL, subject: env.NATS_SUBJECT };
    } else {
      errors.push("NATS_URL: required with REALTIME_FANOUT=nats");
    }
  }

  let tokenSecret = env.TOKEN_SECRET;
  if (tokenSecret !== undefined && Buffer.byteLength(tokenSecret) < 32) {
    errors.push("TOKEN_SECRET: must be at least 32 bytes");
  } else if (tokenSecret === undefined) {
    if (strict) {
      errors.push("TOKEN_SECRET: required in staging and production (at least 32 bytes)");
    } else {
      tokenSecret = developmentSecret(dataDir);
    }
  }

  const smtp = env.SMTP_HOST
    ? {
        host: env.SMTP_HOST,
        port: env.SMTP_PORT,
        user: env.SMTP_USER,
        password: env.SMTP_PASSWORD,
        secure: env.SMTP_SECURE,
        requireTls: strict,
      }
    : undefined;
  if (strict) {
    const resendReady = Boolean(env.RESEND_API_KEY);
    const smtpReady = Boolean(env.SMTP_HOST && env.SMTP_USER && env.SMTP_PASSWORD);
    if (!resendReady && !smtpReady) {
      errors.push("mail: set RESEND_API_KEY, or SMTP_HOST with SMTP_USER and SMTP_PASSWORD");
    }
    if (!env.MAIL_FROM) {
      errors.push("MAIL_FROM: required in staging and production");
    }
  }

  const s3Values = [env.S3_ENDPOINT, env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
  let s3: S3Config | undefined;
  if (env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) {
    s3 = {
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: env.S3_BUCKET,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
  } else if (strict || s3Values.some(Boolean)) {
    errors.push(
      "S3: S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required together",
    );
  }
  if (strict && env.GUEST_LINK_BASE_URL && !env.GUEST_LINK_BASE_URL.startsWith("https://")) {
    errors.push("GUEST_LINK_BASE_URL: must be an https:// URL in staging and production");
  }
  if (strict && env.S3_ENDPOINT && !env.S3_ENDPOINT.startsWith("https://")) {
    errors.push("S3_ENDPOINT: must be an https:// URL in staging and production");
  }

  const listingPlan = parsePlan(env, errors);
  if (strict && !listingPlan && !errors.some((line) => line.startsWith("LISTING_PLAN"))) {
    errors.push(
      "LISTING_PLAN_PRICE_AMOUNT, LISTING_PLAN_CURRENCY, LISTING_PLAN_DURATION_DAYS: required in staging and production",
    );
  }

  let fcm: Config["fcm"];
  if (env.FCM_PROJECT_ID && env.FCM_CREDENTIALS_FILE) {
    fcm = { projectId: env.FCM_PROJECT_ID, credentialsFile: path.resolve(env.FCM_CREDENTIALS_FILE) };
    if (!existsSync(fcm.credentialsFile)) {
      errors.push(`FCM_CREDENTIALS_FILE: ${fcm.credentialsFile} does not exist`);
    }
  } else if (env.FCM_PROJECT_ID || env.FCM_CREDENTIALS_FILE) {
    errors.push("FCM: FCM_PROJECT_ID and FCM_CREDENTIALS_FILE are required together");
  }

  let video: Config["video"];
  if (env.VIDEO_URL && env.VIDEO_API_KEY && env.VIDEO_API_SECRET) {
    if (!/^wss?:\/\//.test(env.VIDEO_URL)) {
      errors.push("VIDEO_URL: must be a ws:// or wss:// URL");
    }
    video = { url: env.VIDEO_URL, apiKey: env.VIDEO_API_KEY, apiSecret: env.VIDEO_API_SECRET };
  } else if (env.VIDEO_URL || env.VIDEO_API_KEY || env.VIDEO_API_SECRET) {
    errors.push("VIDEO: VIDEO_URL, VIDEO_API_KEY and VIDEO_API_SECRET are required together");
  }

  const timeouts = timeoutsOf(env);
  errors.push(...timeoutErrors(timeouts));
  // A delivery that outlives its lease may be claimed again while it runs: at least one push must fit.
  if (env.OUTBOX_LEASE_SECONDS * 1000 <= timeouts.pushMs) {
    errors.push("OUTBOX_LEASE_SECONDS: must be longer than PUSH_TIMEOUT_MS");
  }
  // The same for a room call on the video service (a meeting's end or a participant's leave),
  // which only a process with VIDEO_* makes.
  if (video && env.OUTBOX_LEASE_SECONDS * 1000 <= timeouts.videoMs) {
    errors.push("OUTBOX_LEASE_SECONDS: must be longer than VIDEO_TIMEOUT_MS");
  }
  // A turn of the loop includes a batch's deliveries: a push or a mail may take its whole timeout.
  if (env.WORKER_LIVENESS_SECONDS * 1000 <= Math.max(timeouts.pushMs, timeouts.mailMs)) {
    errors.push("WORKER_LIVENESS_SECONDS: must be longer than PUSH_TIMEOUT_MS and MAIL_TIMEOUT_MS");
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
    errors.push("METRICS_PORT: must differ from PORT (unset it to serve /metrics on PORT)");
  }

  if (errors.length > 0 || tokenSecret === undefined) {
    return { ok: false, errors };
  }

  const config: Config = {
    appEnv: env.APP_ENV,
    appEnvExplicit,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL,
    databaseListenUrl: env.DATABASE_LISTEN_URL ?? env.DATABASE_URL,
    dataDir,
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    databasePoolMax: env.DATABASE_POOL_MAX,
    timeouts,
    tokenSecret,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    refreshReuseGraceSeconds: env.REFRESH_REUSE_GRACE_SECONDS,
    mail: {
      from: env.MAIL_FROM ?? DEVELOPMENT_MAIL_FROM,
      resendApiKey: env.RESEND_API_KEY,
      smtp,
      logBodies: env.MAIL_LOG_BODIES,
    },
    s3,
    listingPlan,
    paymentInstructions: {
      walletone_qr: env.PAYMENT_INSTRUCTIONS_WALLETONE_QR,
      wallettwo_qr: env.PAYMENT_INSTRUCTIONS_WALLETTWO_QR,
    },
    guestLinkBaseUrl: env.GUEST_LINK_BASE_URL?.replace(/\/+$/, ""),
    fcm,
    video,
    allowedOrigins: (env.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    realtimeSockets: {
      perConversation: env.REALTIME_SOCKETS_PER_CONVERSATION,
      perSession: env.REALTIME_SOCKETS_PER_SESSION,
      perUser: env.REALTIME_SOCKETS_PER_USER,
      max: env.REALTIME_MAX_SOCKETS,
    },
    realtimeFanOut,
    readinessChecks: env.READINESS_CHECKS ? env.READINESS_CHECKS === "enabled" : strict,
    worker: env.WORKER,
    outboxLeaseSeconds: env.OUTBOX_LEASE_SECONDS,
    outboxBatchSize: env.OUTBOX_BATCH_SIZE,
    outboxLoops: env.OUTBOX_LOOPS,
    mediaProcessing: {
      concurrency: env.MEDIA_PROCESSING_CONCURRENCY,
      maxInputPixels: env.MEDIA_MAX_INPUT_PIXELS,
    },
    mediaUploadQuota: {
      maxPending: env.MEDIA_PENDING_UPLOADS_PER_DAY,
      maxPendingBytes: env.MEDIA_PENDING_UPLOAD_BYTES_PER_DAY,
    },
    metricsPort: env.METRICS_PORT,
    workerHealthPort: env.WORKER_HEALTH_PORT,
    workerLivenessSeconds: env.WORKER_LIVENESS_SECONDS,
    // Balancers in front of staging and production get a moment; development stops at once.
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS ?? (strict ? DEFAULT_SHUTDOWN_DELAY_MS : 0),
    otel: env.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "") }
      : undefined,
    rateLimitAuthPerIp: env.RATE_LIMIT_AUTH_PER_IP,
    rateLimitRegisterPerEmail: env.RATE_LIMIT_REGISTER_PER_EMAIL,
    rateLimitResetPerEmail: env.RATE_LIMIT_RESET_PER_EMAIL,
    resendCooldownSeconds: env.RESEND_COOLDOWN_SECONDS,
    presenceTimeoutSeconds: env.PRESENCE_TIMEOUT_SECONDS,
    loginFailuresPerClient: env.LOGIN_FAILURES_PER_CLIENT,
    loginFailureNoticePerEmail: env.LOGIN_FAILURE_NOTICE_PER_EMAIL,
    rateLimitGuestOrdersPerIp: env.RATE_LIMIT_GUEST_ORDERS_PER_IP,
    rateLimitGuestOrdersPerEmail: env.RATE_LIMIT_GUEST_ORDERS_PER_EMAIL,
    writeLimitsPerHour: Object.fromEntries(
      writeLimitKinds.map((kind) => [kind, env[writeLimitVariable(kind)]]),
    ) as Record<WriteLimitKind, number>,
    passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: env.PASSWORD_HASH_QUEUE,
    sessionMaxAgeSeconds: env.SESSION_MAX_AGE_SECONDS,
    pendingAccountTtlSeconds: env.PENDING_ACCOUNT_TTL_SECONDS,
    verifyEmailUrl: env.VERIFY_EMAIL_URL,
    publicApiUrl: env.PUBLIC_API_URL?.replace(/\/+$/, ""),
    emailUndoUrl: env.EMAIL_UNDO_URL,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    listingsCoalesce: env.LISTINGS_COALESCE === "on",
    listingsCacheEntries: env.LISTINGS_CACHE_ENTRIES,
  };

  return { ok: true, config: Object.freeze(config) };
};

/** What tests run with: every default of settings.ts, in `test`, on a loopback port of its own. */
const TEST_ENV = {
  APP_ENV: "test",
  HOST: "127.0.0.1",
  PORT: "0",
  DATA_DIR: ".data/test",
  TOKEN_SECRET: "test-secret-that-is-long-enough-for-hs256-signing",
  WORKER: "off",
  WORKER_HEALTH_PORT: "0",
  LOG_LEVEL: "silent",
};

let testDefaults: Config | undefined;

/** Test and tooling convenience: a valid test config (the declared defaults) with overrides. */
export const testConfig = (overrides: Partial<Config> = {}): Config => {
  if (!testDefaults) {
    const result = loadConfig(TEST_ENV);
    if (!result.ok) {
      throw new Error(`the test configuration is invalid: ${result.errors.join("; ")}`);
    }
    testDefaults = result.config;
  }

  return Object.freeze({ ...testDefaults, ...overrides });
};

/** Every timeout's default (settings.ts), for tests that change one. */
export const DEFAULT_TIMEOUTS: Timeouts = timeoutsOf(envSchema.parse({}) as Env);

const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);

/**
 * The loud line for a server started with APP_ENV unset on an address others can reach: it then
 * runs with development defaults (embedded database, generated secret, mail written to the log),
 * which is never what a deployment meant. Undefined when there is nothing to warn about.
 */
export const unsafeDefaultsWarning = (config: Config): string | undefined =>
  config.appEnvExplicit || isLoopback(config.host)
    ? undefined
    : `APP_ENV is not set and the server listens on ${config.host}: it runs with DEVELOPMENT defaults ` +
      "(embedded database, generated token secret, mail not sent). Set APP_ENV=production (or staging) " +
      "for a deployment, or APP_ENV=development to silence this warning.";
