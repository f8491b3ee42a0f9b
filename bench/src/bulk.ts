// Bulk seeding helpers: ids as the service makes them, written by PostgreSQL itself, and foreign
// key checks skipped where the seed builds its rows consistent by construction.
import type pg from "pg";

/**
 * A SQL expression for a UUIDv7 of the instant `at` (a timestamptz expression), as the service's
 * ids are: 48 bits of Unix milliseconds, the version, random bits with the RFC 9562 variant. Rows
 * seeded with it sort by id as they would by creation, so their index pages fill as in production.
 */
export const uuid7At = (at: string) =>
  `(lpad(to_hex((extract(epoch FROM ${at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3)
    || to_hex(8 + floor(random() * 4)::int) || substr(md5(random()::text), 1, 15))::uuid`;

/**
 * Runs `work` with the session's foreign key checks off (session_replication_role = replica, as
 * pg_restore --disable-triggers does), when it may: the role is a superuser and none of `tables`
 * has a trigger of its own (replica mode skips those too, and their work would be missing). The
 * constraints stay in place and valid; the seed's rows satisfy them by construction. Otherwise
 * `work` runs with the checks on: slower, the same rows.
 */
export const withoutForeignKeyChecks = async <T>(
  client: pg.Client,
  tables: readonly string[],
  work: () => Promise<T>,
): Promise<T> => {
  const { rows } = await client.query<{ triggers: number; superuser: boolean }>(
    `SELECT (SELECT count(*)::int FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = ANY($1::regclass[])) AS triggers,
            (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser`,
    [tables],
  );
  const off = rows[0]?.triggers === 0 && rows[0]?.superuser === true;
  if (off) {
    await client.query("SET session_replication_role = replica");
  }
  try {
    return await work();
  } finally {
    if (off) {
      await client.query("SET session_replication_role = DEFAULT");
    }
  }
};
