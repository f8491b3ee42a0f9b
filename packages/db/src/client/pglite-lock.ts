import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);

    return true;
  } catch {
    return false;
  }
};

/**
 * PGlite is one process's database: two processes opening the same directory would each keep
 * their own copy and overwrite the other's. A lock file beside it (holding the owner's pid) makes
 * the second one wait briefly (a restart in watch mode) and then refuse with a clear message.
 */
export const lockDataDir = async (dataDir: string, waitMs: number): Promise<() => void> => {
  const lockFile = `${path.resolve(dataDir)}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });

      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") {
        throw error;
      }
    }
    const holder = Number(readFileSync(lockFile, "utf8"));
    if (!Number.isInteger(holder) || holder === process.pid || !isAlive(holder)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (attempt * 100 >= waitMs) {
      throw new Error(
        `the embedded database ${dataDir} is in use by process ${holder} (PGlite serves one process; stop it, or set DATABASE_URL)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
