// The outbox worker as its own process. Several may run beside each other and beside API processes
// running it embedded (WORKER=embedded); claims use SKIP LOCKED, so none double-delivers.
import { configOrExit } from "@agora/process/config-or-exit";
import { createLogger, safeError } from "@agora/process/logging";
import { startWorker } from "./composition";
import { startWorkerHealthServer } from "./health-server";

const config = configOrExit();
const logger = createLogger({ level: config.logLevel, appEnv: config.appEnv }).child({ process: "worker" });
const exit = (code: number) => {
  logger.flush();
  process.exit(code);
};

if (!config.databaseUrl) {
  // PGlite belongs to one process at a time: without a server database the API runs the worker.
  logger.warn(
    "DATABASE_URL is not set: the embedded database belongs to the API process, which runs the worker itself",
  );
  exit(0);
}

try {
  // Probes and scrapes are answered from the start: /health passes while the database is awaited,
  // /ready once the loops run.
  const health = await startWorkerHealthServer(config, logger);
  const stopWorker = await startWorker(config, logger, health);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    logger.info({ signal }, "agora worker stopping: finishing the batch in flight");
    await stopWorker();
    logger.info("agora worker stopped");
    exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
} catch (error) {
  logger.fatal({ err: safeError(error) }, "agora worker could not start");
  exit(1);
}
