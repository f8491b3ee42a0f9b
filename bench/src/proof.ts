// `pnpm proof`: the multi-process proof on this machine (see proof/run.ts), printing its table.
// PROOF_DATABASE_URL names the PostgreSQL server (a database is created on it and dropped after),
// PROOF_LOAD_SECONDS the idempotency phase's load, PROOF_CONNECTIONS autocannon's connections and
// PROOF_NGINX the nginx binary; PROOF_KEEP_LOGS=1 keeps the processes' logs (kept on failure anyway).
// Exits 1 when any duplicate or loss was found.
import { formatProof, runProof } from "./proof/run.ts";

const env = process.env;
const report = await runProof({
  serverUrl: env.PROOF_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
  loadSeconds: Number(env.PROOF_LOAD_SECONDS ?? 5),
  connections: Number(env.PROOF_CONNECTIONS ?? 16),
  ...(env.PROOF_NGINX ? { nginx: env.PROOF_NGINX } : {}),
  keepLogs: env.PROOF_KEEP_LOGS === "1",
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`\n${formatProof(report)}`);
process.exitCode = report.ok ? 0 : 1;
