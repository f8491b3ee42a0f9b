// `kill -9` of an outbox worker in the middle of a batch. The proof holds a row lock on a provider's
// user from its own connection, so every delivery to that provider (its inbox row's foreign-key
// check) waits: a worker that claimed such events is stuck mid-batch, visibly (its PostgreSQL
// backend waits on a lock). That worker is killed with SIGKILL; then the lock is released. Its
// events come back when their lease runs out and another worker delivers them: none twice into the
// inbox, none lost.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { sleep } from "@agora/testing/eventually";
import pg from "pg";
import type { Managed } from "../common.ts";

/** The local TCP ports of a process's sockets (Linux: /proc/<pid>/fd and /proc/net/tcp{,6}). */
const localPortsOf = (pid: number): Set<number> => {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) {
        inodes.add(inode);
      }
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.trim().split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1] ?? "";
      const inode = fields[9] ?? "";
      if (inodes.has(inode)) {
        ports.add(Number.parseInt(local.split(":")[1] ?? "0", 16));
      }
    }
  }

  return ports;
};

/**
 * The workers with database sessions waiting on a lock right now (their batch is stuck), most
 * waiting sessions first (the larger batch).
 */
const stuckWorkers = async (client: pg.Client, workers: Managed[]): Promise<Managed[]> => {
  const { rows } = await client.query<{ client_port: number }>(
    `SELECT client_port FROM pg_stat_activity
      WHERE application_name = 'agora-worker' AND wait_event_type = 'Lock' AND client_port IS NOT NULL`,
  );
  const waiting = new Set(rows.map((row) => row.client_port));
  const counted = workers.map((worker) => {
    const pid = worker.child.pid;
    if (pid === undefined || worker.child.exitCode !== null) {
      return { worker, sessions: 0 };
    }

    return { worker, sessions: [...localPortsOf(pid)].filter((port) => waiting.has(port)).length };
  });

  return counted
    .filter((entry) => entry.sessions > 0)
    .sort((a, b) => b.sessions - a.sessions)
    .map((entry) => entry.worker);
};

/**
 * Holds `userId`'s row, runs `createEvents` (which makes events delivered to that user), waits
 * until a worker is stuck in a batch of them, kills it with SIGKILL, and releases the row. Returns
 * the killed worker, when it was killed, and how many events were claimed (leased, undelivered) at
 * that moment.
 */
export const killWorkerMidBatch = async ({
  client,
  databaseUrl,
  userId,
  workers,
  createEvents,
}: {
  client: pg.Client;
  databaseUrl: string;
  userId: string;
  workers: Managed[];
  createEvents: () => Promise<void>;
}): Promise<{ killed: Managed; killedAt: Date; claimedAtKill: number }> => {
  const holder = new pg.Client({ connectionString: databaseUrl, application_name: "agora-proof-holder" });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [userId]);
    await createEvents();
    // Both workers stuck is the usual outcome (events arrive one by one; each claims some); one is enough.
    let stuck: Managed[] = [];
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      stuck = await stuckWorkers(client, workers);
      if (stuck.length === workers.length) {
        break;
      }
      if (stuck.length > 0 && Date.now() > deadline - 12_000) {
        break;
      }
      await sleep(100);
    }
    const killed = stuck[0];
    if (!killed) {
      throw new Error("no worker got stuck in a batch (did the workers claim the events?)");
    }
    const { rows } = await client.query<{ claimed: number }>(
      `SELECT count(*)::int AS claimed FROM outbox_events
        WHERE processed_at IS NULL AND dead_at IS NULL AND available_at > now()`,
    );
    killed.child.kill("SIGKILL");
    const killedAt = new Date();
    await killed.exited;

    return { killed, killedAt, claimedAtKill: rows[0]?.claimed ?? 0 };
  } finally {
    await holder.query("ROLLBACK").catch(() => {});
    await holder.end().catch(() => {});
  }
};
