// Backup and restore of the embedded (PGlite) database: `pnpm agora backup <file>` and
// `pnpm agora restore <file>` (docs/operations.md, "Backups that restore"). The backup is PGlite's
// own tarball of its data directory (`dumpDataDir`, gzip), taken through an open database, so it
// is consistent; it holds the directory's lock meanwhile, so the API must be stopped first (PGlite
// serves one process).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { lockDataDir, openDatabase } from "./client";

/** How long backup and restore wait for a process holding the data directory (then refuse). */
const LOCK_WAIT_MS = 5_000;

/** A failure the operator can act on (the CLI prints it as one line). */
export class EmbeddedBackupError extends Error {}

const hasDatabase = (dataDir: string) => existsSync(path.join(dataDir, "PG_VERSION"));

/** Writes a gzipped tarball of the embedded database at `dataDir` to `file` (never over one). */
export const backupEmbeddedDatabase = async (dataDir: string, file: string): Promise<{ bytes: number }> => {
  if (!hasDatabase(dataDir)) {
    throw new EmbeddedBackupError(`no embedded database at ${dataDir} (is DATA_DIR set as the API's?)`);
  }
  if (existsSync(file)) {
    throw new EmbeddedBackupError(`${file} exists: choose another file name`);
  }
  const database = await openDatabase({ dataDir, lockWaitMs: LOCK_WAIT_MS });
  try {
    if (database.listenTarget.kind !== "pglite") {
      throw new EmbeddedBackupError("not an embedded database");
    }
    const tarball = Buffer.from(await (await database.listenTarget.db.dumpDataDir("gzip")).arrayBuffer());
    // Written beside the target and renamed: a file under the final name is always whole.
    const partial = `${file}.partial`;
    writeFileSync(partial, tarball, { flag: "w" });
    renameSync(partial, file);

    return { bytes: tarball.length };
  } finally {
    await database.close();
  }
};

export type RestoreResult = {
  /** Migrations recorded in the restored database. */
  migrations: number;
  /** Where the database that was replaced now is (`force` over a non-empty directory). */
  keptAside?: string;
};

/**
 * Restores a tarball made by `backupEmbeddedDatabase` into `dataDir`. A directory that already holds
 * anything is refused unless `force`, and then moved aside (`<dataDir>.replaced-<time>`), never
 * deleted. The tarball is unpacked and opened in a staging directory first, so a bad file changes
 * nothing; the target's lock is held throughout, so a running API refuses it.
 */
export const restoreEmbeddedDatabase = async (
  file: string,
  dataDir: string,
  options: { force?: boolean; now?: Date } = {},
): Promise<RestoreResult> => {
  if (!existsSync(file)) {
    throw new EmbeddedBackupError(`${file} does not exist`);
  }
  const target = path.resolve(dataDir);
  const unlock = await lockDataDir(target, LOCK_WAIT_MS);
  try {
    const occupied = existsSync(target) && readdirSync(target).length > 0;
    if (occupied && !options.force) {
      throw new EmbeddedBackupError(
        `${target} is not empty: restore will not replace a database unless told to (--force keeps the current one aside)`,
      );
    }
    const staging = `${target}.restoring`;
    rmSync(staging, { recursive: true, force: true });
    let migrations: number;
    try {
      const database = await openDatabase({
        dataDir: staging,
        loadDataDir: new Blob([readFileSync(file)]),
        lockWaitMs: LOCK_WAIT_MS,
      });
      try {
        const { rows } = await database.sql.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM _prisma_migrations",
        );
        migrations = rows[0]?.count ?? 0;
      } finally {
        await database.close();
      }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      throw new EmbeddedBackupError(`${file} is not a backup of Agora's embedded database (${reason})`);
    }
    let keptAside: string | undefined;
    if (existsSync(target)) {
      if (occupied) {
        keptAside = `${target}.replaced-${(options.now ?? new Date()).toISOString().replaceAll(":", "")}`;
        renameSync(target, keptAside);
      } else {
        rmSync(target, { recursive: true, force: true });
      }
    }
    renameSync(staging, target);

    return keptAside ? { migrations, keptAside } : { migrations };
  } finally {
    unlock();
  }
};
