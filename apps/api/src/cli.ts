// `pnpm agora <verb>` (docs/operations.md, "Command line"). Reads the same configuration as the
// server; exits 0 on success, non-zero with one clear line on failure.
import { parseArgs } from "node:util";
import { registerRequestSchema, roleSchema } from "@agora/contracts/identity";
import { curatedContentPublishSchema } from "@agora/contracts/lifestyle.admin";
import { AppError } from "@agora/domain/common/app-error";
import { isUuid } from "@agora/domain/common/ids";
import { createVerifiedUser } from "@agora/domain/identity/create-verified-user";
import { publishCuratedContent } from "@agora/domain/lifestyle/publish-curated-content";
import { retryDeadEvents } from "@agora/domain/outbox/retry-dead-events";
import { configOrExit } from "@agora/process/config-or-exit";
import {
  backupCommand,
  migrateCommand,
  restoreCommand,
  seedCommand,
  withRuntime,
} from "./composition/commands";

type Command = (args: string[]) => Promise<string>;

const usage = `usage: agora <verb>
  migrate                 apply pending SQL migrations
  seed                    load the default catalog (idempotent)
  user create --email E --password P --username U [--display-name D] [--role member|provider|accountant|admin]
                          create an active, verified user; prints its id
  content publish --title T --body B
                          publish a curated content item; prints its id
  outbox retry [--id <eventId>]
                          re-drive dead-lettered outbox events (all, or one); prints how many
  backup <file>           write the embedded database (DATA_DIR) to <file>; stop the API first
  restore <file> [--force]
                          restore the embedded database from <file> into DATA_DIR; refuses a
                          non-empty one unless --force (which keeps it aside)`;

/** A failure the operator can act on: printed as one line, exit 1. */
class CommandError extends Error {}

const userCreate: Command = async (args) => {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      username: { type: "string" },
      "display-name": { type: "string" },
      role: { type: "string", default: "member" },
    },
    strict: true,
  });
  const parsed = registerRequestSchema.safeParse({
    email: values.email,
    password: values.password,
    username: values.username,
    display_name: values["display-name"],
  });
  const role = roleSchema.safeParse(values.role);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CommandError(
      `--${String(issue?.path[0] ?? "input").replace("_", "-")}: ${issue?.message ?? "invalid"}`,
    );
  }
  if (!role.success) {
    throw new CommandError(`--role: must be one of ${roleSchema.options.join(", ")}`);
  }
  const { userId } = await withRuntime(configOrExit(), (runtime) =>
    createVerifiedUser(runtime.identity, {
      username: parsed.data.username,
      email: parsed.data.email,
      password: parsed.data.password,
      displayName: parsed.data.display_name,
      role: role.data,
    }),
  );

  return userId;
};

const contentPublish: Command = async (args) => {
  const { values } = parseArgs({
    args,
    options: { title: { type: "string" }, body: { type: "string" } },
    strict: true,
  });
  const parsed = curatedContentPublishSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CommandError(`--${String(issue?.path[0] ?? "input")}: ${issue?.message ?? "invalid"}`);
  }
  const item = await withRuntime(configOrExit(), (runtime) =>
    publishCuratedContent(runtime.lifestyle, parsed.data),
  );

  return item.id;
};

const outboxRetry: Command = async (args) => {
  const { values } = parseArgs({ args, options: { id: { type: "string" } }, strict: true });
  if (values.id !== undefined && !isUuid(values.id)) {
    throw new CommandError("--id: must be an outbox event id (UUID)");
  }
  const count = await withRuntime(configOrExit(), (runtime) =>
    retryDeadEvents(runtime.outbox, { eventId: values.id }),
  );

  return `outbox: ${count} dead-lettered event${count === 1 ? "" : "s"} re-driven`;
};

/** The configuration, when the database is the embedded one; PostgreSQL has its own tools. */
const embeddedConfig = (verb: "backup" | "restore") => {
  const config = configOrExit();
  if (config.databaseUrl) {
    throw new CommandError(
      `DATABASE_URL is set: use ${verb === "backup" ? "pg_dump" : "pg_restore"} for PostgreSQL (docs/operations.md, "Backups that restore")`,
    );
  }

  return config;
};

const oneFile = (args: string[], options: { force?: { type: "boolean" } } = {}) => {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  const [file, ...rest] = positionals;
  if (file === undefined || rest.length > 0) {
    throw new CommandError("expects one file name");
  }

  return { file, force: (values as { force?: boolean }).force === true };
};

const backup: Command = async (args) => {
  const { file } = oneFile(args);
  const { dataDir, bytes } = await backupCommand(embeddedConfig("backup"), file);

  return `backup: ${dataDir} written to ${file} (${bytes} bytes)`;
};

const restore: Command = async (args) => {
  const { file, force } = oneFile(args, { force: { type: "boolean" } });
  const result = await restoreCommand(embeddedConfig("restore"), file, force);

  return `restore: ${file} restored into ${result.dataDir} (${result.migrations} migrations recorded)${
    result.keptAside ? `; the database it replaced is kept at ${result.keptAside}` : ""
  }`;
};

const commands: Record<string, Command> = {
  migrate: async () => {
    const result = await migrateCommand(configOrExit());

    return result.applied.length === 0
      ? `migrations: up to date (${result.alreadyApplied} applied)`
      : `migrations: applied ${result.applied.join(", ")}`;
  },
  seed: async () => {
    const result = await seedCommand(configOrExit());

    return `catalog: ${result.servicesAdded} services and ${result.categoriesAdded} categories added`;
  },
  "user create": userCreate,
  "content publish": contentPublish,
  "outbox retry": outboxRetry,
  backup,
  restore,
};

const describe = (error: unknown): string => {
  if (error instanceof AppError && error.details?.[0]) {
    return `${error.details[0].path} ${error.details[0].message}`;
  }

  return error instanceof Error ? (error.message.split("\n")[0] ?? "failed") : String(error);
};

const main = async () => {
  const argv = process.argv.slice(2);
  const twoWords = argv.slice(0, 2).join(" ");
  const [name, args] = commands[twoWords] ? [twoWords, argv.slice(2)] : [argv[0] ?? "", argv.slice(1)];
  const command = commands[name];
  if (!command) {
    process.stderr.write(
      `agora: ${name ? `unknown verb "${argv.slice(0, 2).join(" ")}"` : "missing verb"}\n${usage}\n`,
    );
    process.exit(2);
  }
  try {
    const output = await command(args);
    process.stdout.write(`${output}\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(`agora ${name}: ${describe(error)}\n`);
    process.exit(1);
  }
};

await main();
