// The only module that reads process.env. Everything else receives the frozen Config.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type WriteLimitKind, writeLimitDefaults } from "@agora/domain/common/write-limits";
import { type UploadQuota, uploadQuotaDefaults } from "@agora/domain/media/upload-quota";
import { z } from "zod";

const appEnvs = ["development", "test", "staging", "production"] as const;
export type AppEnvName = (typeof appEnvs)[number];

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const intFrom = <F extends number | undefined>(min: number, max: number, fallback: F) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") {
        return fallback;
      }
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: "custom", message: `must be an integer from ${min} to ${max}` });

        return z.NEVER;
      }

      return parsed;
    });

const boolFrom = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") {
        return fallback;
      }
      if (["true", "1", "yes"].includes(value)) {
        return true;
      }
      if (["false", "0", "no"].includes(value)) {
        return false;
      }
      ctx.addIssue({ code: "custom", message: "must be true or false" });

      return z.NEVER;
    });

const envSchema = z.object({
  APP_ENV: z.enum(appEnvs).default("development"),
  HOST: optionalText,
  PORT: intFrom(0, 65_535, 8080),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATABASE_LISTEN_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATA_DIR: optionalText,
  // `unnamed` for a pooler that does not keep prepared statements across transactions (PgBouncer
  // before 1.21 in transaction mode, many managed poolers); docs/operations.md, "Any connection pooler".
  DATABASE_PREPARED_STATEMENTS: z.enum(["named", "unnamed"]).default("named"),
  DATABASE_POOL_MAX: intFrom(1, 500, 10),
  DATABASE_ACQUIRE_TIMEOUT_MS: intFrom(100, 600_000, 5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: intFrom(100, 3_600_000, 5_000),
  DATABASE_EXPORT_STATEMENT_TIMEOUT_MS: intFrom(100, 86_400_000, 120_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: intFrom(100, 3_600_000, 15_000),
  DATABASE_STARTUP_TIMEOUT_MS: intFrom(0, 86_400_000, 300_000),
  MAIL_TIMEOUT_MS: intFrom(100, 600_000, 10_000),
  PUSH_TIMEOUT_MS: intFrom(100, 600_000, 10_000),
  VIDEO_TIMEOUT_MS: intFrom(100, 600_000, 5_000),
  TOKEN_SECRET: optionalText,
  ACCESS_TOKEN_TTL_SECONDS: intFrom(30, 86_400, 900),
  REFRESH_TOKEN_TTL_SECONDS: intFrom(60, 31_536_000, 2_592_000),
  REFRESH_REUSE_GRACE_SECONDS: intFrom(0, 300, 10),
  MAIL_FROM: optionalText,
  RESEND_API_KEY: optionalText,
  SMTP_HOST: optionalText,
  SMTP_PORT: intFrom(1, 65_535, 587),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_SECURE: boolFrom(false),
  S3_ENDPOINT: optionalText,
  S3_REGION: optionalText,
  S3_BUCKET: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: boolFrom(true),
  S3_TIMEOUT_MS: intFrom(100, 600_000, 10_000),
  MEDIA_PROCESSING_CONCURRENCY: intFrom(1, 16, 1),
  MEDIA_MAX_INPUT_PIXELS: intFrom(1_000_000, 268_402_689, 50_000_000),
  MEDIA_PENDING_UPLOADS_PER_DAY: intFrom(0, 1_000_000, uploadQuotaDefaults.maxPending),
  MEDIA_PENDING_UPLOAD_BYTES_PER_DAY: intFrom(0, 2 ** 50, uploadQuotaDefaults.maxPendingBytes),
  LISTING_PLAN_PRICE_AMOUNT: optionalText,
  LISTING_PLAN_CURRENCY: optionalText,
  LISTING_PLAN_DURATION_DAYS: optionalText,
  PAYMENT_INSTRUCTIONS_WALLETONE_QR: optionalText.pipe(z.string().max(2000).optional()),
  PAYMENT_INSTRUCTIONS_WALLETTWO_QR: optionalText.pipe(z.string().max(2000).optional()),
  GUEST_LINK_BASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^\s#?]+$/, "must be an http:// or https:// URL without a query or fragment")
      .optional(),
  ),
  FCM_PROJECT_ID: optionalText,
  FCM_CREDENTIALS_FILE: optionalText,
  VIDEO_URL: optionalText,
  VIDEO_API_KEY: optionalText,
  VIDEO_API_SECRET: optionalText,
  ALLOWED_ORIGINS: optionalText,
  REALTIME_SOCKETS_PER_CONVERSATION: intFrom(1, 100, 4),
  REALTIME_SOCKETS_PER_SESSION: intFrom(1, 10_000, 50),
  REALTIME_SOCKETS_PER_USER: intFrom(1, 10_000, 100),
  REALTIME_MAX_SOCKETS: intFrom(1, 1_000_000, 10_000),
  // How API processes hear each other's chat changes: PostgreSQL LISTEN/NOTIFY, or a NATS broker
  // (docs/decisions/realtime-fan-out.md).
  REALTIME_FANOUT: z.enum(["postgres", "nats"]).default("postgres"),
  NATS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^(nats|tls):\/\/[^\s]+$/, "must be nats:// or tls:// URLs, comma-separated")
      .optional(),
  ),
  NATS_SUBJECT: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "must be a plain NATS subject (no wildcards)")
      .optional(),
  ),
  READINESS_CHECKS: z.enum(["enabled", "disabled"]).optional(),
  WORKER: z.enum(["embedded", "off"]).default("embedded"),
  OUTBOX_LEASE_SECONDS: intFrom(1, 3_600, 60),
  OUTBOX_BATCH_SIZE: intFrom(1, 1_000, 200),
  OUTBOX_LOOPS: intFrom(1, 16, 2),
  // Unset: /metrics on PORT (the API's default). Set: /metrics only there (docs/operations.md).
  METRICS_PORT: intFrom(1, 65_535, undefined),
  WORKER_HEALTH_PORT: intFrom(0, 65_535, 9091),
  WORKER_LIVENESS_SECONDS: intFrom(1, 3_600, 60),
  // Unset: a default that depends on APP_ENV (see shutdownDelayMs below).
  SHUTDOWN_DELAY_MS: intFrom(0, 600_000, undefined),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, "must be an http:// or https:// URL")
      .optional(),
  ),
  RATE_LIMIT_AUTH_PER_IP: intFrom(0, 1_000_000, 100),
  RATE_LIMIT_REGISTER_PER_EMAIL: intFrom(0, 1_000_000, 5),
  RATE_LIMIT_RESET_PER_EMAIL: intFrom(0, 1_000_000, 5),
  RESEND_COOLDOWN_SECONDS: intFrom(1, 3_600, 60),
  PRESENCE_TIMEOUT_SECONDS: intFrom(1, 60, 60),
  LOGIN_FAILURES_PER_CLIENT: intFrom(1, 1_000, 10),
  LOGIN_FAILURE_NOTICE_PER_EMAIL: intFrom(0, 1_000_000, 20),
  RATE_LIMIT_GUEST_ORDERS_PER_IP: intFrom(0, 1_000_000, 30),
  RATE_LIMIT_GUEST_ORDERS_PER_EMAIL: intFrom(0, 1_000_000, 10),
  RATE_LIMIT_CHAT_MESSAGES_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.chat_messages),
  RATE_LIMIT_CONVERSATIONS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.conversations),
  RATE_LIMIT_MOMENTS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.moments),
  RATE_LIMIT_COMMENTS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.comments),
  RATE_LIMIT_LIKES_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.likes),
  RATE_LIMIT_REPORTS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.reports),
  RATE_LIMIT_UPLOADS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.uploads),
  RATE_LIMIT_MEDIA_CONFIRMATIONS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.media_confirmations),
  RATE_LIMIT_DEVICES_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.devices),
  RATE_LIMIT_MEETINGS_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.meetings),
  RATE_LIMIT_SEARCHES_PER_HOUR: intFrom(0, 1_000_000, writeLimitDefaults.searches),
  PASSWORD_HASH_CONCURRENCY: intFrom(1, 64, 2),
  PASSWORD_HASH_QUEUE: intFrom(0, 100_000, 256),
  SESSION_MAX_AGE_SECONDS: intFrom(3600, 315_360_000, 7_776_000),
  // Registrations never verified are removed after this long, freeing email and username (docs/accounts.md).
  PENDING_ACCOUNT_TTL_SECONDS: intFrom(3600, 31_536_000, 172_800),
  // Where the verification mail's link points; `user_id` and `code` are added as query parameters.
  VERIFY_EMAIL_URL: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i, "must be an absolute URL (https://… or an app scheme)")
      .default("agora://verify-email"),
  ),
  MAIL_LOG_BODIES: boolFrom(false),
  TRUST_PROXY: boolFrom(false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Benchmarking switch (docs/performance.md): `off` turns off the coalescing of identical listing
  // searches in flight, to measure what the queries themselves cost. Read only when set.
  LISTINGS_COALESCE: z.enum(["on", "off", ""]).optional(),
  // Public listing pages (browse and search) each API process keeps, served again only while the
  // catalog is unchanged (docs/decisions/caching.md); 0 turns the cache off.
  LISTINGS_CACHE_ENTRIES: intFrom(0, 100_000, 1_000),
});

type Env = z.infer<typeof envSchema>;

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
  /** PostgreSQL ends a transaction idle this long; above the mail timeout (mail is sent inside one). */
  databaseIdleInTransactionMs: number;
  /** Start-up waits this long for an unreachable database, then exits 1; 0 waits forever. */
  databaseStartupMs: number;
  /** One mail handed to the provider, whole (SMTP or Resend). */
  mailMs: number;
  /** One push multicast to FCM. */
  pushMs: number;
  /** One object-store call (the S3 adapter, when it lands, must use it). */
  s3Ms: number;
  /** One call to the video service's RoomService (DeleteRoom, RemoveParticipant), as a whole. */
  videoMs: number;
}>;

export const DEFAULT_TIMEOUTS: Timeouts = Object.freeze({
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

/** SHUTDOWN_DELAY_MS in staging and production when unset. */
const DEFAULT_SHUTDOWN_DELAY_MS = 5_000;

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
   * Where the realtime LISTEN session connects: DATABASE_URL unless set (a transaction-mode pooler
   * in DATABASE_URL cannot carry LISTEN, so it must then point at PostgreSQL or a session pool).
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
  /** Events one outbox claim takes (and delivers together: their inbox rows in one statement). */
  outboxBatchSize: number;
  /** Outbox claim loops per worker process (batches in flight at once). */
  outboxLoops: number;
  /**
   * Uploaded images processed at once per process (the others of a batch wait their turn), and the
   * largest pixel count decoded (a larger image is rejected from its header, never decoded).
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
  if (days === undefined || !Number.isInteger(duration) || duration < 1 || duration > 3650) {
    errors.push("LISTING_PLAN_DURATION_DAYS: must be an integer from 1 to 3650");
  }

  return errors.length === before
    ? { priceAmount: amount, currency: (currency ?? "").toUpperCase(), durationDays: duration }
    : undefined;
};

/** Bounds that only make sense together. */
const timeoutErrors = (timeouts: Timeouts): string[] => {
  const errors: string[] = [];
  // Registration sends its mail inside the transaction that creates the account (until mail moves
  // to the outbox): a server that ended that transaction first would leave a mailed code that
  // was never stored.
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
  const env = parsed.data;
  const errors: string[] = [];
  const strict = isStrict(env.APP_ENV);
  const dataDir = path.resolve(env.DATA_DIR ?? ".data");

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
      realtimeFanOut = { kind: "nats", url: env.NATS_URL, subject: env.NATS_SUBJECT ?? "agora.chat" };
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
      region: env.S3_REGION ?? "us-east-1",
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

  const timeouts: Timeouts = Object.freeze({
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
    appEnvExplicit: (source.APP_ENV ?? "").trim() !== "",
    host: env.HOST ?? "0.0.0.0",
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
      from: env.MAIL_FROM ?? "agora@localhost",
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
    writeLimitsPerHour: {
      chat_messages: env.RATE_LIMIT_CHAT_MESSAGES_PER_HOUR,
      conversations: env.RATE_LIMIT_CONVERSATIONS_PER_HOUR,
      moments: env.RATE_LIMIT_MOMENTS_PER_HOUR,
      comments: env.RATE_LIMIT_COMMENTS_PER_HOUR,
      likes: env.RATE_LIMIT_LIKES_PER_HOUR,
      reports: env.RATE_LIMIT_REPORTS_PER_HOUR,
      uploads: env.RATE_LIMIT_UPLOADS_PER_HOUR,
      media_confirmations: env.RATE_LIMIT_MEDIA_CONFIRMATIONS_PER_HOUR,
      devices: env.RATE_LIMIT_DEVICES_PER_HOUR,
      meetings: env.RATE_LIMIT_MEETINGS_PER_HOUR,
      searches: env.RATE_LIMIT_SEARCHES_PER_HOUR,
    },
    passwordHashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: env.PASSWORD_HASH_QUEUE,
    sessionMaxAgeSeconds: env.SESSION_MAX_AGE_SECONDS,
    pendingAccountTtlSeconds: env.PENDING_ACCOUNT_TTL_SECONDS,
    verifyEmailUrl: env.VERIFY_EMAIL_URL,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    listingsCoalesce: env.LISTINGS_COALESCE !== "off",
    listingsCacheEntries: env.LISTINGS_CACHE_ENTRIES,
  };

  return { ok: true, config: Object.freeze(config) };
};

/** Test and tooling convenience: a valid development config with overrides. */
export const testConfig = (overrides: Partial<Config> = {}): Config =>
  Object.freeze({
    appEnv: "test",
    appEnvExplicit: true,
    host: "127.0.0.1",
    port: 0,
    databaseUrl: undefined,
    databaseListenUrl: undefined,
    dataDir: path.resolve(".data/test"),
    databasePreparedStatements: "named",
    databasePoolMax: 10,
    timeouts: DEFAULT_TIMEOUTS,
    tokenSecret: "test-secret-that-is-long-enough-for-hs256-signing",
    accessTokenTtlSeconds: 900,
    refreshTokenTtlSeconds: 2_592_000,
    refreshReuseGraceSeconds: 10,
    mail: { from: "agora@localhost", resendApiKey: undefined, smtp: undefined, logBodies: false },
    s3: undefined,
    listingPlan: undefined,
    paymentInstructions: { walletone_qr: undefined, wallettwo_qr: undefined },
    guestLinkBaseUrl: undefined,
    fcm: undefined,
    video: undefined,
    allowedOrigins: [],
    realtimeSockets: { perConversation: 4, perSession: 50, perUser: 100, max: 10_000 },
    realtimeFanOut: { kind: "postgres" },
    readinessChecks: false,
    worker: "off",
    outboxLeaseSeconds: 60,
    outboxBatchSize: 200,
    outboxLoops: 2,
    mediaProcessing: { concurrency: 1, maxInputPixels: 50_000_000 },
    mediaUploadQuota: { ...uploadQuotaDefaults },
    metricsPort: undefined,
    workerHealthPort: 0,
    workerLivenessSeconds: 60,
    shutdownDelayMs: 0,
    otel: undefined,
    rateLimitAuthPerIp: 100,
    rateLimitRegisterPerEmail: 5,
    rateLimitResetPerEmail: 5,
    resendCooldownSeconds: 60,
    presenceTimeoutSeconds: 60,
    loginFailuresPerClient: 10,
    loginFailureNoticePerEmail: 20,
    rateLimitGuestOrdersPerIp: 30,
    rateLimitGuestOrdersPerEmail: 10,
    writeLimitsPerHour: { ...writeLimitDefaults },
    passwordHashConcurrency: 2,
    passwordHashQueue: 256,
    sessionMaxAgeSeconds: 7_776_000,
    pendingAccountTtlSeconds: 172_800,
    verifyEmailUrl: "agora://verify-email",
    trustProxy: false,
    logLevel: "silent",
    listingsCoalesce: true,
    listingsCacheEntries: 1_000,
    ...overrides,
  } satisfies Config);

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
