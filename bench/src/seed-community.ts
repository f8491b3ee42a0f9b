// Seeds the bench database with the community at scale: 10,000 members, 100,000 moments (one in
// ten with media, one in a hundred hidden) and 1,000,000 likes, generated inside PostgreSQL
// (generate_series), so the whole load is a handful of statements. Readers are members with blocks
// both ways among the authors of the newest moments, so the feed's block filter has work to do, and
// mutes of a few others, for its mute filter.
import { createJwtAccessTokens } from "@agora/adapters/security/jwt-access-tokens";
import type { Role } from "@agora/domain/common/actor";
import { KEY_PURPOSES, keyRing } from "@agora/domain/common/derived-keys";
import type pg from "pg";
import { uuid7At, withoutForeignKeyChecks } from "./bulk.ts";

const MEMBERS = 10_000;
const MOMENTS = 100_000;
const LIKES_PER_MOMENT = 10;
const READERS = 200;

export type SeededCommunity = { moments: number; likes: number; readerTokens: string[] };

/**
 * An access token as the API issues them (the API's own issuer, under the key it derives from
 * TOKEN_SECRET), for a session the bench wrote; valid `seconds` (an hour) from now.
 */
export const accessToken = async (
  secret: string,
  userId: string,
  sessionId: string,
  role: Role = "member",
  seconds = 3600,
) =>
  (
    await createJwtAccessTokens(keyRing(secret, KEY_PURPOSES.accessTokens), seconds).issue(
      { userId, sessionId, role },
      new Date(),
    )
  ).token;

/**
 * Active, verified users written straight to the database (`<prefix>-<id>@example.com`, username
 * `<prefix><id without dashes>`), each with the session beside it when `sessions` are given
 * (sign-in would mail codes).
 */
export const insertUsers = async (
  client: pg.Client,
  {
    ids,
    sessions,
    prefix,
    displayName,
    role = "member",
  }: {
    ids: string[];
    sessions?: string[];
    prefix: string;
    displayName: string;
    role?: "member" | "provider";
  },
) => {
  await client.query(
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
     SELECT id, $2 || '-' || id || '@example.com', $2 || replace(id::text, '-', ''), $3, '', $4,
            'active', now(), now(), now()
       FROM unnest($1::uuid[]) AS t(id)`,
    [ids, prefix, displayName, role],
  );
  if (sessions) {
    await client.query(
      "INSERT INTO sessions (id, user_id, created_at) SELECT s, u, now() FROM unnest($1::uuid[], $2::uuid[]) AS t(s, u)",
      [sessions, ids],
    );
  }
};

/** The tables the seed writes (withoutForeignKeyChecks checks that none has a trigger of its own). */
const SEEDED = [
  "users",
  "moments",
  "media_assets",
  "moment_media",
  "moment_likes",
  "user_blocks",
  "user_mutes",
  "sessions",
];

/** `moments` (100,000 by default) sets the moments, and with them the likes (ten each). */
export const seedCommunity = (
  client: pg.Client,
  tokenSecret: string,
  moments = MOMENTS,
): Promise<SeededCommunity> =>
  withoutForeignKeyChecks(client, SEEDED, () => seed(client, tokenSecret, moments));

const seed = async (client: pg.Client, tokenSecret: string, moments: number): Promise<SeededCommunity> => {
  await client.query(`CREATE TEMP TABLE bench_members AS
                        SELECT g AS n, gen_random_uuid() AS id FROM generate_series(0, ${MEMBERS - 1}) g`);
  await client.query(
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at,
                        created_at, updated_at)
     SELECT id, 'member' || n || '@community.bench', 'member' || n, 'Member ' || n, '', 'member', 'active',
            now(), now(), now()
       FROM bench_members`,
  );
  // Moment n is n × 37 s old and written by member n mod 10,000; its id is a UUIDv7 of that time,
  // as the service makes it. Moments, their media and their likes are written oldest first, so the
  // tables and their indexes fill in creation order as in production (and fast).
  await client.query(`CREATE TEMP TABLE bench_moments AS
                        SELECT g AS n, ${uuid7At("created_at")} AS id, created_at
                          FROM generate_series(0, ${moments - 1}) g, LATERAL (SELECT now() - g * interval '37 seconds' AS created_at) t`);
  await client.query(
    `INSERT INTO moments (id, author_id, body, like_count, created_at, hidden_at)
     SELECT m.id, a.id, 'Moment ' || m.n || ': an afternoon by the river, with friends', ${LIKES_PER_MOMENT},
            m.created_at, CASE WHEN m.n % 100 = 42 THEN m.created_at END
       FROM bench_moments m JOIN bench_members a ON a.n = m.n % ${MEMBERS}
      ORDER BY m.n DESC`,
  );
  await client.query(
    `INSERT INTO media_assets (id, owner_id, purpose, mime_type, size_bytes, object_key, status, visibility,
                               uploaded_at, attached_at, created_at)
     SELECT m.id, a.id, 'moment', 'image/jpeg', 250000, 'media/' || m.id, 'uploaded', 'public',
            m.created_at, m.created_at, m.created_at
       FROM bench_moments m JOIN bench_members a ON a.n = m.n % ${MEMBERS}
      WHERE m.n % 10 = 3
      ORDER BY m.n DESC`,
  );
  await client.query(
    `INSERT INTO moment_media (moment_id, position, media_asset_id)
     SELECT id, 0, id FROM bench_moments WHERE n % 10 = 3 ORDER BY n DESC`,
  );
  // Ten distinct likers per moment: members (n + k × 997) mod 10,000 for k = 0..9.
  await client.query(
    `INSERT INTO moment_likes (moment_id, user_id, created_at)
     SELECT m.id, a.id, m.created_at
       FROM bench_moments m
      CROSS JOIN generate_series(0, ${LIKES_PER_MOMENT - 1}) k
       JOIN bench_members a ON a.n = (m.n + k * 997) % ${MEMBERS}
      ORDER BY m.n DESC, k`,
  );
  // Readers: members 0-199. Each blocks 20 of the authors of the 100 newest moments and is blocked
  // by 5 others of them, so about a quarter of a first page is filtered out.
  await client.query(
    `INSERT INTO user_blocks (blocker_id, blocked_id, created_at)
     SELECT DISTINCT r.id, b.id, now()
       FROM bench_members r
      CROSS JOIN generate_series(1, 20) j
       JOIN bench_members b ON b.n = (r.n * 3 + j * 17) % 100
      WHERE r.n < ${READERS} AND b.id <> r.id
     ON CONFLICT DO NOTHING`,
  );
  await client.query(
    `INSERT INTO user_blocks (blocker_id, blocked_id, created_at)
     SELECT DISTINCT b.id, r.id, now()
       FROM bench_members r
      CROSS JOIN generate_series(1, 5) j
       JOIN bench_members b ON b.n = (r.n * 7 + j * 31) % 100
      WHERE r.n < ${READERS} AND b.id <> r.id
     ON CONFLICT DO NOTHING`,
  );
  // And mutes 10 of them (some also blocked), so the feed's mute filter, an anti join beside the
  // block filter's, has work to do on a first page as well.
  await client.query(
    `INSERT INTO user_mutes (muter_id, muted_id, created_at)
     SELECT DISTINCT r.id, b.id, now()
       FROM bench_members r
      CROSS JOIN generate_series(1, 10) j
       JOIN bench_members b ON b.n = (r.n * 5 + j * 13 + 50) % 100
      WHERE r.n < ${READERS} AND b.id <> r.id
     ON CONFLICT DO NOTHING`,
  );
  await client.query(
    "ANALYZE users, moments, moment_media, media_assets, moment_likes, user_blocks, user_mutes",
  );
  // A session per reader, in one statement.
  const { rows } = await client.query<{ id: string; session_id: string }>(
    `WITH readers AS (SELECT n, id, gen_random_uuid() AS session_id FROM bench_members WHERE n < ${READERS}),
          written AS (INSERT INTO sessions (id, user_id, created_at) SELECT session_id, id, now() FROM readers)
     SELECT id, session_id FROM readers ORDER BY n`,
  );
  const readerTokens = await Promise.all(
    rows.map(({ id, session_id }) => accessToken(tokenSecret, id, session_id)),
  );

  return { moments, likes: moments * LIKES_PER_MOMENT, readerTokens };
};
