/**
 * Every environment variable Agora reads, each declared once: its name, its schema (with its
 * default), the group it belongs to and a one-line description. The rest derives from this table:
 * config.ts builds its parser from it (and `testConfig` from its defaults), and the variables'
 * section of docs/configuration.md and infra/.env.example are rendered from it
 * (`pnpm --filter @agora/process settings:write`); settings.test.ts fails when they disagree.
 *
 * Descriptions are Markdown (code spans, links relative to docs/), one short line: longer
 * explanations go in the group's summary or in the prose of docs/configuration.md.
 */
import {
  type WriteLimitKind,
  writeLimitDefaults,
  writeLimitKinds,
  writeLimits,
} from "@agora/domain/common/write-limits";
import { uploadQuotaDefaults } from "@agora/domain/media/upload-quota";
import { z } from "zod";

export const appEnvs = ["development", "test", "staging", "production"] as const;

/** SHUTDOWN_DELAY_MS in staging and production when unset (development and test stop at once). */
export const DEFAULT_SHUTDOWN_DELAY_MS = 5_000;
/** MAIL_FROM in development and test when unset (staging and production require it). */
export const DEVELOPMENT_MAIL_FROM = "agora@localhost";
/** The longest listing plan, in days (LISTING_PLAN_DURATION_DAYS). */
export const LISTING_PLAN_MAX_DAYS = 3650;

/** The groups, in the order the docs and infra/.env.example list them. */
export const settingGroups = {
  process: {
    title: "Process",
    summary:
      "The images set `APP_ENV=production`. Without `APP_ENV`, a server listening beyond loopback " +
      "logs a loud warning: it runs with development defaults (embedded database, generated secret, " +
      "mail written to the log).",
  },
  http: {
    title: "HTTP",
    summary:
      "`TRUST_PROXY` set wrongly either way breaks the per-address limits: see " +
      "[Client addresses and `TRUST_PROXY`](#client-addresses-and-trust_proxy).",
  },
  database: {
    title: "Database",
    summary:
      "Size `DATABASE_POOL_MAX` so that (API replicas + workers) × it stays under the server's " +
      "`max_connections`, or put PgBouncer in front ([operations](operations.md)). A request that " +
      "waits past a timeout answers 503.",
  },
  sessions: {
    title: "Sessions",
    summary:
      "Generate a secret with " +
      "`node -e \"console.log(require('crypto').randomBytes(48).toString('base64url'))\"`.",
  },
  accounts: {
    title: "Accounts",
    summary:
      "Registration, sign-in and password hashing ([accounts](accounts.md)). Raise " +
      "`PASSWORD_HASH_CONCURRENCY` together with `UV_THREADPOOL_SIZE` (libuv's pool, 4 threads by " +
      "default) on larger machines.",
  },
  mail: {
    title: "Mail",
    summary:
      "Resend, or SMTP (nodemailer). Staging and production need one of them (SMTP with its user and " +
      "password) and `MAIL_FROM`; there SMTP requires STARTTLS unless `SMTP_SECURE` (a relay that " +
      "does not offer it fails the send).",
  },
  storage: {
    title: "Object store",
    summary:
      "An S3-compatible store for media. Staging and production require the endpoint, bucket and " +
      "both keys, and an `https://` endpoint; elsewhere all four or none.",
  },
  media: {
    title: "Media",
    summary: "Image processing and the pending-upload quota ([media](media.md#bounded-costs)).",
  },
  commerce: {
    title: "Listings and payments",
    summary:
      "The three `LISTING_PLAN_*` go together: staging and production require them; elsewhere, " +
      "without them the plan is unavailable (422).",
  },
  push: {
    title: "Push",
    summary:
      "Firebase Cloud Messaging: both values, or push is off. Mount the key file read-only; the " +
      "compose stack passes no FCM settings (add a volume and both lines to use it there).",
  },
  video: {
    title: "Video",
    summary:
      "A LiveKit-compatible service: all three values, or joins answer 503. A meeting's end and a " +
      "leave call its RoomService from the outbox worker, so give `apps/worker` the same three.",
  },
  realtime: {
    title: "Realtime",
    summary:
      "Socket caps per API process ([limits](#realtime-sockets)) and how API processes " +
      "hear each other's chat changes ([decision](decisions/realtime-fan-out.md), " +
      "[ceiling](performance.md#the-realtime-fan-outs-ceiling)).",
  },
  outbox: {
    title: "Outbox worker",
    summary:
      "The worker runs in each API process (`WORKER=embedded`) or in `apps/worker` " +
      "([operations](operations.md)).",
  },
  observability: {
    title: "Observability",
    summary: "Logs, metrics and traces ([operations](operations.md)).",
  },
  limits: {
    title: "Abuse limits",
    summary:
      "`0` turns a count off. What each counts, and the fixed limits: " +
      "[Limits and abuse resistance](#limits-and-abuse-resistance).",
  },
  writeLimits: {
    title: "Write limits",
    summary:
      "What one account (without one, one client address) may create per hour, per kind " +
      "(`RATE_LIMIT_<KIND>_PER_HOUR`; `0` = off; [Safety](safety.md#write-limits)).",
  },
  bench: {
    title: "Benchmarking only",
    summary: "Switches for `pnpm bench` ([performance](performance.md)); leave them empty in a deployment.",
  },
} as const satisfies Record<string, { title: string; summary: string }>;

export type SettingGroup = keyof typeof settingGroups;

/** What every variable arrives as. */
type Raw = string | undefined;

export type Setting<T = unknown> = Readonly<{
  schema: z.ZodType<T, Raw>;
  group: SettingGroup;
  description: string;
  /** The value taken when unset or empty, as written (undefined: none, or see `defaultNote`). */
  default: string | undefined;
  /** A default the loader works out (from APP_ENV or another variable), in words. */
  defaultNote?: string;
  /** What an integer may be, inclusive. */
  range?: readonly [number, number];
  /** The values an enumeration takes. */
  values?: readonly string[];
  /** The longest text accepted. */
  maxLength?: number;
  /** Never in an image or version control: infra/.env.example leaves it empty unless `example` is a placeholder. */
  secret?: boolean;
  /** Staging and production refuse to start without it (config.ts says so, one line each). */
  requiredWhenStrict?: boolean;
  /** infra/.env.example's value when it is not the default ("" leaves it empty). */
  example?: string;
}>;

type Meta = Pick<
  Setting,
  "group" | "description" | "defaultNote" | "secret" | "requiredWhenStrict" | "example"
>;

/** Empty or blank is unset, for every variable (an env file's `NAME=` line sets nothing). */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

const intFrom = <F extends number | undefined>(min: number, max: number, fallback: F) =>
  optionalText.transform((value, ctx): number | F => {
    if (value === undefined) {
      return fallback;
    }
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      ctx.addIssue({ code: "custom", message: `must be an integer from ${min} to ${max}` });

      return z.NEVER;
    }

    return parsed;
  });

const int = <F extends number | undefined>(
  min: number,
  max: number,
  fallback: F,
  meta: Meta,
): Setting<number | F> => ({
  ...meta,
  schema: intFrom(min, max, fallback),
  default: fallback === undefined ? undefined : String(fallback),
  range: [min, max],
});

const bool = (fallback: boolean, meta: Meta): Setting<boolean> => ({
  ...meta,
  schema: optionalText.transform((value, ctx) => {
    const lower = value?.toLowerCase();
    if (lower === undefined) {
      return fallback;
    }
    if (["true", "1", "yes"].includes(lower)) {
      return true;
    }
    if (["false", "0", "no"].includes(lower)) {
      return false;
    }
    ctx.addIssue({ code: "custom", message: "must be true or false" });

    return z.NEVER;
  }),
  default: String(fallback),
  values: ["true", "false"],
});

const oneOf = <const V extends readonly [string, ...string[]], F extends V[number] | undefined>(
  values: V,
  fallback: F,
  meta: Meta,
): Setting<V[number] | F> => ({
  ...meta,
  schema: optionalText.pipe(
    fallback === undefined ? z.enum(values).optional() : z.enum(values).default(fallback),
  ) as unknown as z.ZodType<V[number] | F, Raw>,
  default: fallback,
  values,
});

type TextRule = { pattern?: readonly [RegExp, string]; maxLength?: number };

const textSchema = (rule: TextRule) => {
  let checked = z.string();
  if (rule.pattern) {
    checked = checked.regex(rule.pattern[0], rule.pattern[1]);
  }
  if (rule.maxLength !== undefined) {
    checked = checked.max(rule.maxLength);
  }

  return checked;
};

/** Free text; unset (or empty) is undefined. */
const text = (meta: Meta, rule: TextRule = {}): Setting<string | undefined> => ({
  ...meta,
  schema: optionalText.pipe(textSchema(rule).optional()),
  default: undefined,
  ...(rule.maxLength === undefined ? {} : { maxLength: rule.maxLength }),
});

/** Text with a default. */
const textOr = (fallback: string, meta: Meta, rule: TextRule = {}): Setting<string> => ({
  ...meta,
  schema: optionalText.pipe(textSchema(rule).default(fallback)),
  default: fallback,
});

const postgresUrl = [/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"] as const;

/** `RATE_LIMIT_<KIND>_PER_HOUR`: the variable of each write limit. */
export const writeLimitVariable = <K extends WriteLimitKind>(kind: K) =>
  `RATE_LIMIT_${kind.toUpperCase()}_PER_HOUR` as `RATE_LIMIT_${Uppercase<K>}_PER_HOUR`;

type WriteLimitSettings = {
  [K in WriteLimitKind as ReturnType<typeof writeLimitVariable<K>>]: Setting<number>;
};

const writeLimitSettings = Object.fromEntries(
  writeLimitKinds.map((kind) => [
    writeLimitVariable(kind),
    int(0, 1_000_000, writeLimitDefaults[kind], {
      group: "writeLimits",
      description: `${writeLimits[kind].counts} per hour`,
    }),
  ]),
) as WriteLimitSettings;

export const settings = {
  // Process
  APP_ENV: oneOf(appEnvs, "development", {
    group: "process",
    description: "staging and production refuse to start without their dependencies (above)",
    example: "production",
  }),
  HOST: textOr("0.0.0.0", {
    group: "process",
    description: "the address the API listens on (and its `METRICS_PORT`)",
  }),
  PORT: int(0, 65_535, 8080, { group: "process", description: "the API's port (`0`: any free port)" }),
  DATA_DIR: textOr(".data", {
    group: "process",
    description: "the embedded database and the development token secret (the images: `/data`)",
    example: "/data",
  }),
  WORKER: oneOf(["embedded", "off"], "embedded", {
    group: "process",
    description: "`embedded` runs the outbox worker in each API process; `off` leaves it to `apps/worker`",
    example: "off",
  }),
  READINESS_CHECKS: oneOf(["enabled", "disabled"], undefined, {
    group: "process",
    description: "`/ready` checks the database and that its schema has every migration of the build",
    defaultNote: "`enabled` in staging and production, else `disabled`",
    example: "enabled",
  }),
  SHUTDOWN_DELAY_MS: int(0, 600_000, undefined, {
    group: "process",
    description:
      "after SIGTERM, serve this long with `/ready` at 503, then drain ([operations](operations.md#stopping))",
    defaultNote: `\`${DEFAULT_SHUTDOWN_DELAY_MS}\` in staging and production, else \`0\``,
    example: String(DEFAULT_SHUTDOWN_DELAY_MS),
  }),

  // HTTP
  ALLOWED_ORIGINS: text({
    group: "http",
    description:
      "comma-separated origins for CORS and the realtime Origin check; no `Origin` (native apps) passes",
    example: "https://admin.example.com",
  }),
  TRUST_PROXY: bool(false, {
    group: "http",
    description: "take the client address from the last `X-Forwarded-For` entry (behind a reverse proxy)",
    example: "true",
  }),

  // Database
  DATABASE_URL: text(
    {
      group: "database",
      description: "PostgreSQL; unset: the embedded PGlite under `DATA_DIR` (development and test only)",
      secret: true,
      requiredWhenStrict: true,
      example: "postgresql://agora:change-me@postgres.internal:5432/agora",
    },
    { pattern: postgresUrl },
  ),
  DATABASE_LISTEN_URL: text(
    {
      group: "database",
      description: "the realtime LISTEN sessions: PostgreSQL or a session pool, never a transaction pooler",
      defaultNote: "`DATABASE_URL`",
      secret: true,
    },
    { pattern: postgresUrl },
  ),
  DATABASE_POOL_MAX: int(1, 500, 10, { group: "database", description: "connections per process" }),
  DATABASE_PREPARED_STATEMENTS: oneOf(["named", "unnamed"], "named", {
    group: "database",
    description:
      "`unnamed` for a transaction-mode pooler that keeps no prepared statements ([operations](operations.md))",
  }),
  DATABASE_ACQUIRE_TIMEOUT_MS: int(100, 600_000, 5_000, {
    group: "database",
    description: "waiting for a connection (a free pool slot, then the connect)",
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: int(100, 3_600_000, 5_000, {
    group: "database",
    description: "PostgreSQL's `statement_timeout` on the request path",
  }),
  DATABASE_EXPORT_STATEMENT_TIMEOUT_MS: int(100, 86_400_000, 120_000, {
    group: "database",
    description: "the same per statement of an export's transaction; at least the one above",
  }),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: int(100, 3_600_000, 15_000, {
    group: "database",
    description: "PostgreSQL ends a transaction idle this long; must exceed `MAIL_TIMEOUT_MS`",
  }),
  DATABASE_STARTUP_TIMEOUT_MS: int(0, 86_400_000, 300_000, {
    group: "database",
    description: "start-up waits this long for an unreachable database, then exits 1 (`0`: forever)",
  }),

  // Sessions
  TOKEN_SECRET: text({
    group: "sessions",
    description:
      "at least 32 bytes; the keys of tokens, codes, links and sealed data derive from it " +
      "([keys](accounts.md#keys-from-token_secret))",
    defaultNote: "generated once into `DATA_DIR` in development and test",
    secret: true,
    requiredWhenStrict: true,
  }),
  ACCESS_TOKEN_TTL_SECONDS: int(30, 86_400, 900, {
    group: "sessions",
    description: "an access token's life",
  }),
  REFRESH_TOKEN_TTL_SECONDS: int(60, 31_536_000, 2_592_000, {
    group: "sessions",
    description: "a refresh token's life",
  }),
  REFRESH_REUSE_GRACE_SECONDS: int(0, 300, 10, {
    group: "sessions",
    description: "a just-rotated refresh token may be presented again this long (one app, two requests)",
  }),
  SESSION_MAX_AGE_SECONDS: int(3600, 315_360_000, 7_776_000, {
    group: "sessions",
    description: "a session's life from sign-in; refreshing never extends it",
  }),

  // Accounts
  PENDING_ACCOUNT_TTL_SECONDS: int(3600, 31_536_000, 172_800, {
    group: "accounts",
    description:
      "a registration never verified is removed this long after it was made ([accounts](accounts.md#pending-registrations))",
  }),
  EMAIL_UNDO_URL: textOr(
    "agora://email-undo",
    {
      group: "accounts",
      description: "the undo link mailed to the old address after an email change; `token` is added to it",
    },
    {
      pattern: [/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i, "must be an absolute URL (https://… or an app scheme)"],
    },
  ),
  VERIFY_EMAIL_URL: textOr(
    "agora://verify-email",
    {
      group: "accounts",
      description: "the verification mail's link; `user_id` and `code` are added as query parameters",
    },
    {
      pattern: [/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i, "must be an absolute URL (https://… or an app scheme)"],
    },
  ),
  PUBLIC_API_URL: text(
    {
      group: "accounts",
      description:
        "the API's public origin, for mailed links to its routes (a data export's: [accounts](accounts.md#your-data)); unset: no link",
    },
    {
      pattern: [/^https?:\/\/[^\s#?]+$/, "must be an http:// or https:// URL without a query or fragment"],
    },
  ),
  PASSWORD_HASH_CONCURRENCY: int(1, 64, 2, {
    group: "accounts",
    description: "argon2 hashes running at once per process",
  }),
  PASSWORD_HASH_QUEUE: int(0, 100_000, 256, {
    group: "accounts",
    description: "hashes waiting for one of those; past both, 503",
  }),

  // Mail
  MAIL_FROM: text({
    group: "mail",
    description: "the sender address",
    defaultNote: `\`${DEVELOPMENT_MAIL_FROM}\` in development and test`,
    requiredWhenStrict: true,
    example: "agora@example.com",
  }),
  RESEND_API_KEY: text({ group: "mail", description: "mail through the Resend API", secret: true }),
  SMTP_HOST: text({
    group: "mail",
    description: "mail through this SMTP relay",
    example: "smtp.example.com",
  }),
  SMTP_PORT: int(1, 65_535, 587, { group: "mail", description: "the relay's port" }),
  SMTP_USER: text({ group: "mail", description: "the relay's user", example: "agora" }),
  SMTP_PASSWORD: text({ group: "mail", description: "the relay's password", secret: true }),
  SMTP_SECURE: bool(false, {
    group: "mail",
    description: "`true`: implicit TLS (port 465); `false`: STARTTLS",
  }),
  MAIL_TIMEOUT_MS: int(100, 600_000, 10_000, {
    group: "mail",
    description: "one mail handed to the provider, as a whole; past it, 503 `email_unavailable`",
  }),
  MAIL_LOG_BODIES: bool(false, {
    group: "mail",
    description: "with no provider (development), also log mail bodies, codes included",
  }),

  // Object store
  S3_ENDPOINT: text({
    group: "storage",
    description: "the store's URL",
    requiredWhenStrict: true,
    example: "https://s3.example.com",
  }),
  S3_REGION: textOr("us-east-1", { group: "storage", description: "the store's region" }),
  S3_BUCKET: text({
    group: "storage",
    description: "the bucket media go to",
    requiredWhenStrict: true,
    example: "agora-media",
  }),
  S3_ACCESS_KEY_ID: text({
    group: "storage",
    description: "the access key's id",
    secret: true,
    requiredWhenStrict: true,
  }),
  S3_SECRET_ACCESS_KEY: text({
    group: "storage",
    description: "the access key's secret",
    secret: true,
    requiredWhenStrict: true,
  }),
  S3_FORCE_PATH_STYLE: bool(true, {
    group: "storage",
    description: "`<endpoint>/<bucket>/<key>` URLs (MinIO); `false`: the bucket as a subdomain",
  }),
  S3_TIMEOUT_MS: int(100, 600_000, 10_000, {
    group: "storage",
    description: "one call to the store (HEAD, GET, PUT, COPY, DELETE), its retry included",
  }),

  // Media
  MEDIA_PROCESSING_CONCURRENCY: int(1, 16, 1, {
    group: "media",
    description: "images processed at once per process (also the uploads' claim loop's batch)",
  }),
  MEDIA_MAX_INPUT_PIXELS: int(1_000_000, 268_402_689, 50_000_000, {
    group: "media",
    description: "an image with more pixels is rejected from its header, never decoded",
  }),
  MEDIA_PENDING_UPLOADS_PER_DAY: int(0, 1_000_000, uploadQuotaDefaults.maxPending, {
    group: "media",
    description:
      "pending uploads one account may have; then 429 ([media](media.md#pending-uploads); `0` = off)",
  }),
  MEDIA_PENDING_UPLOAD_BYTES_PER_DAY: int(0, 2 ** 50, uploadQuotaDefaults.maxPendingBytes, {
    group: "media",
    description: "their declared bytes; then 429 (`0` = off)",
  }),

  // Listings and payments
  LISTING_PLAN_PRICE_AMOUNT: text({
    group: "commerce",
    description: "the listing plan's price in minor units (`990` = 9.90)",
    requiredWhenStrict: true,
    example: "990",
  }),
  LISTING_PLAN_CURRENCY: text({
    group: "commerce",
    description: "its currency (ISO 4217, three letters)",
    requiredWhenStrict: true,
    example: "USD",
  }),
  LISTING_PLAN_DURATION_DAYS: text({
    group: "commerce",
    description: `its duration in days (1–${LISTING_PLAN_MAX_DAYS})`,
    requiredWhenStrict: true,
    example: "30",
  }),
  PAYMENT_INSTRUCTIONS_WALLETONE_QR: text(
    { group: "commerce", description: "instructions shown for paying by WalletOne QR; unset: none" },
    { maxLength: 2000 },
  ),
  PAYMENT_INSTRUCTIONS_WALLETTWO_QR: text(
    { group: "commerce", description: "the same for WalletTwo QR" },
    { maxLength: 2000 },
  ),
  GUEST_LINK_BASE_URL: text(
    {
      group: "commerce",
      description:
        "where guests' receipt mails link to (`https://` in staging and production; [retries](retries.md))",
    },
    {
      pattern: [/^https?:\/\/[^\s#?]+$/, "must be an http:// or https:// URL without a query or fragment"],
    },
  ),
  LISTINGS_CACHE_ENTRIES: int(0, 100_000, 1_000, {
    group: "commerce",
    description:
      "public listing pages each API process keeps, about 16 KiB each ([caching](decisions/caching.md))",
  }),

  // Push
  FCM_PROJECT_ID: text({ group: "push", description: "the Firebase project" }),
  FCM_CREDENTIALS_FILE: text({
    group: "push",
    description: "the path of a service-account JSON key inside the container",
    secret: true,
  }),
  PUSH_TIMEOUT_MS: int(100, 600_000, 10_000, {
    group: "push",
    description: "one FCM multicast; past it the delivery is retried",
  }),

  // Video
  VIDEO_URL: text({ group: "video", description: "the service's `ws://` or `wss://` URL" }),
  VIDEO_API_KEY: text({ group: "video", description: "its API key", secret: true }),
  VIDEO_API_SECRET: text({ group: "video", description: "its API secret", secret: true }),
  VIDEO_TIMEOUT_MS: int(100, 600_000, 5_000, {
    group: "video",
    description: "one RoomService call (by the worker); past it, retried",
  }),

  // Realtime
  REALTIME_SOCKETS_PER_CONVERSATION: int(1, 100, 4, {
    group: "realtime",
    description: "sockets one session may hold on one conversation (429 past it)",
  }),
  REALTIME_SOCKETS_PER_SESSION: int(1, 10_000, 50, {
    group: "realtime",
    description: "sockets one session may hold (429 past it)",
  }),
  REALTIME_SOCKETS_PER_USER: int(1, 10_000, 100, {
    group: "realtime",
    description: "sockets one user may hold across sessions (429 past it)",
  }),
  REALTIME_MAX_SOCKETS: int(1, 1_000_000, 10_000, {
    group: "realtime",
    description: "sockets of the process; past it an upgrade is accepted and closed with 1013",
  }),
  REALTIME_FANOUT: oneOf(["postgres", "nats"], "postgres", {
    group: "realtime",
    description:
      "`postgres`: `pg_notify` and one LISTEN per process; `nats`: published to NATS after the commit",
  }),
  NATS_URL: text(
    {
      group: "realtime",
      description:
        "with `REALTIME_FANOUT=nats` (required then): the servers, comma-separated; it reconnects forever",
      example: "",
    },
    { pattern: [/^(nats|tls):\/\/[^\s]+$/, "must be nats:// or tls:// URLs, comma-separated"] },
  ),
  NATS_SUBJECT: textOr(
    "agora.chat",
    {
      group: "realtime",
      description:
        "the subject of one deployment's API processes; deployments sharing a NATS server need one each",
    },
    {
      pattern: [/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "must be a plain NATS subject (no wildcards)"],
    },
  ),
  PRESENCE_TIMEOUT_SECONDS: int(1, 60, 60, {
    group: "realtime",
    description: "the longest a user whose API process died still shows online ([operations](operations.md))",
  }),

  // Outbox worker
  OUTBOX_LEASE_SECONDS: int(1, 3_600, 60, {
    group: "outbox",
    description: "how long a claim holds its events; must exceed the push (and video) timeout",
  }),
  OUTBOX_BATCH_SIZE: int(1, 1_000, 200, {
    group: "outbox",
    description: "events one claim takes and delivers together",
  }),
  OUTBOX_LOOPS: int(1, 16, 2, {
    group: "outbox",
    description: "claim loops per process (batches in flight), besides the uploads' own",
  }),
  WORKER_HEALTH_PORT: int(0, 65_535, 9091, {
    group: "outbox",
    description: "`apps/worker`'s `/health`, `/ready` and `/metrics` (`0`: any free port)",
  }),
  WORKER_LIVENESS_SECONDS: int(1, 3_600, 60, {
    group: "outbox",
    description: "the worker's `/health` fails once a claim loop has not turned this long",
  }),

  // Observability
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"], "info", {
    group: "observability",
    description: "pino's level",
  }),
  METRICS_PORT: int(1, 65_535, undefined, {
    group: "observability",
    description:
      "serve the API's `/metrics` only on this port (the main one answers it 404); unset: on `PORT`",
    example: "",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: text(
    {
      group: "observability",
      description: "OpenTelemetry traces to `<endpoint>/v1/traces` (OTLP/HTTP); unset: no tracing",
    },
    { pattern: [/^https?:\/\/[^\s]+$/, "must be an http:// or https:// URL"] },
  ),

  // Abuse limits
  RATE_LIMIT_AUTH_PER_IP: int(0, 1_000_000, 100, {
    group: "limits",
    description: "auth requests per client address (IPv6 per /64) per 15 minutes",
  }),
  RATE_LIMIT_REGISTER_PER_EMAIL: int(0, 1_000_000, 5, {
    group: "limits",
    description: "registrations per email per hour",
  }),
  RATE_LIMIT_RESET_PER_EMAIL: int(0, 1_000_000, 5, {
    group: "limits",
    description: "password reset requests per email per hour",
  }),
  LOGIN_FAILURES_PER_CLIENT: int(1, 1_000, 10, {
    group: "limits",
    description:
      "sign-in tries per email and client address per 15 minutes ([accounts](accounts.md#sign-in-guessing))",
  }),
  LOGIN_FAILURE_NOTICE_PER_EMAIL: int(0, 1_000_000, 20, {
    group: "limits",
    description: "wrong passwords per email per 15 minutes that mail the owner a notice",
  }),
  RESEND_COOLDOWN_SECONDS: int(1, 3_600, 60, {
    group: "limits",
    description:
      "a second code resend for one address within this answers 429 ([accounts](accounts.md#resends))",
  }),
  RATE_LIMIT_GUEST_ORDERS_PER_IP: int(0, 1_000_000, 30, {
    group: "limits",
    description: "guest orders per client address per hour (raise it behind carriers' CGNAT)",
  }),
  RATE_LIMIT_GUEST_ORDERS_PER_EMAIL: int(0, 1_000_000, 10, {
    group: "limits",
    description: "guest orders per guest email per hour",
  }),

  // Write limits: one per kind of packages/domain/src/common/write-limits.ts.
  ...writeLimitSettings,

  // Benchmarking only
  LISTINGS_COALESCE: oneOf(["on", "off"], "on", {
    group: "bench",
    description: "`off` stops identical listing searches in flight from sharing one query",
    example: "",
  }),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof settings;

/** The parsed environment: each variable's value, its default applied. */
export type Env = { [K in SettingName]: (typeof settings)[K] extends Setting<infer T> ? T : never };

export const settingNames = Object.keys(settings) as SettingName[];

/** The parser of the whole environment, built from the declarations. */
export const envSchema = z.object(
  Object.fromEntries(settingNames.map((name) => [name, settings[name].schema])) as {
    [K in SettingName]: z.ZodType<Env[K], Raw>;
  },
);
