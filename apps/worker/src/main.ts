// The outbox worker as its own process. Several may run beside each other and beside API
// processes running it embedded (WORKER=embedded); claims use SKIP LOCKED, so none double-delivers.
import { configOrExit } from "@agora/runtime/config-or-exit";
import { openConfiguredDatabase } from "@agora/runtime/database";
import { createLogger, safeError } from "@agora/runtime/logging";

const config = configOrExit();
const logger = createLogger({ level: config.logLevel }).child({ process: "worker" });

if (!config.databaseUrl) {
  // PGlite belongs to one process at a time: without a server database the API runs the worker.
  logger.warn(
    "DATABASE_URL is not set: the embedded database belongs to the API process, which runs the worker itself",
  );
  logger.flush();
  process.exit(0);
}

try {
  const database = await openConfiguredDatabase(config, "agora-worker");
  await database.ping();
  logger.info({ database: database.kind }, "agora worker started");

  const stop = async (signal: string) => {
    logger.info({ signal }, "agora worker stopping");
    await database.close();
    logger.info("agora worker stopped");
    logger.flush();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  // Keeps the process alive until a signal arrives.
  setInterval(() => {}, 1 << 30);
} catch (error) {
  logger.fatal({ err: safeError(error) }, "agora worker could not start");
  logger.flush();
  process.exit(1);
}
