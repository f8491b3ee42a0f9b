import type { IdentityRepositories } from "@agora/domain/identity/identity.ports";
import type { IdGenerator } from "@agora/domain/shared/ids";
import type { UnitOfWork } from "@agora/domain/shared/unit-of-work";
import type { Sql, SqlExecutor } from "../sql";
import { createAuditLog } from "./audit.repository";
import { createCodeRepository } from "./codes.repository";
import { createRateLimiter } from "./rate-limits.repository";
import { createSessionRepository } from "./sessions.repository";
import { createUserRepository } from "./users.repository";

/** Every repository, bound to one executor (the pool, or a transaction's connection). */
export type Repositories = IdentityRepositories;

export const createRepositories = (db: SqlExecutor, ids: IdGenerator): Repositories => ({
  users: createUserRepository(db),
  codes: createCodeRepository(db),
  sessions: createSessionRepository(db),
  audit: createAuditLog(db, ids),
  rateLimits: createRateLimiter(db),
});

export const createUnitOfWork = (sql: Sql, ids: IdGenerator): UnitOfWork<Repositories> => ({
  run: (work) => sql.transaction((tx) => work(createRepositories(tx, ids))),
});
