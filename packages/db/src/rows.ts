// Row types of the raw SQL repositories, derived from the models Prisma generates from
// schema.prisma: a column renamed, dropped, retyped or made nullable there changes these types,
// and the repositories that read it stop compiling. (The drift test keeps schema.prisma and the
// migrations in step; the integration tests run every statement.)

/** `providerUserId` → `provider_user_id`: the @map convention of schema.prisma. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** What node-postgres hands back for a Prisma field type: int8 as a string, jsonb parsed. */
type PgValue<T> = T extends readonly (infer Item)[]
  ? PgValue<Item>[]
  : T extends bigint
    ? string
    : T extends Date
      ? Date
      : T extends string | number | boolean | null
        ? T
        : unknown;

/** A table row as node-postgres returns it, from the Prisma model of that table. */
export type RowOf<Model> = { [K in keyof Model & string as SnakeCase<K>]: PgValue<Model[K]> };
