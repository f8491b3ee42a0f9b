// `pnpm agora <verb>` (CONTRACT.md §3). Reads the same configuration as the server; exits 0 on
// success, non-zero with one clear line on failure.
import { parseArgs } from "node:util";
import { configOrExit } from "@agora/runtime/config-or-exit";
import { migrateCommand, seedCommand } from "./deps";

type Command = (args: string[]) => Promise<string>;

const usage = `usage: agora <verb>
  migrate                 apply pending SQL migrations
  seed                    load the default catalog (idempotent)`;

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
};

const main = async () => {
  const { positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, strict: false });
  const [verb, ...rest] = positionals;
  const command = verb ? commands[verb] : undefined;
  if (!command) {
    process.stderr.write(`agora: ${verb ? `unknown verb "${verb}"` : "missing verb"}\n${usage}\n`);
    process.exit(2);
  }
  try {
    const output = await command(rest.length > 0 ? process.argv.slice(3) : []);
    process.stdout.write(`${output}\n`);
    process.exit(0);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    process.stderr.write(`agora ${verb}: ${message}\n`);
    process.exit(1);
  }
};

await main();
