// The API process's database: opened from the configuration, and its schema's readiness probe.
import { type Database, openDatabase } from "@agora/db/client";
import { migrationLevel } from "@agora/db/migrator";
import { type DatabaseConfig, databaseOptions } from "@agora/process/database";
import type { Tracing } from "@agora/process/telemetry/tracing";
import type { Logger } from "pino";
import { passOnce, ReadinessFailure, type ReadinessProbe } from "../modules/system/readiness";

export const openConfiguredDatabase = (
  config: DatabaseConfig,
  applicationName: string,
  tracing?: Tracing,
  logger?: Logger,
) => openDatabase(databaseOptions(config, applicationName, tracing, logger));

/**
 * Readiness of the schema: every migration this build carries is applied (and unchanged). Its good
 * answer is kept, so after the first pass a probe costs nothing.
 */
export const schemaProbe = (database: Database): ReadinessProbe => ({
  name: "schema",
  requires: "database",
  check: passOnce(async () => {
    const { pending, changed } = await migrationLevel(database.sql);
    if (pending.length > 0) {
      throw new ReadinessFailure(
        `${pending.length} migration${pending.length === 1 ? "" : "s"} not applied: ${pending.join(", ")}`,
      );
    }
    if (changed.length > 0) {
      throw new ReadinessFailure(`applied migrations differ from this build's: ${changed.join(", ")}`);
    }
  }),
});
