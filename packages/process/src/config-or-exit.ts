import { type Config, loadConfig } from "./config";

/** Loads the configuration or exits 1 with one line per problem (stderr). */
export const configOrExit = (): Config => {
  const result = loadConfig();
  if (!result.ok) {
    process.stderr.write(
      `agora: invalid configuration\n${result.errors.map((line) => `  ${line}\n`).join("")}`,
    );
    process.exit(1);
  }

  return result.config;
};
