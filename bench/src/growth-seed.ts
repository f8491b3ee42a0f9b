// The growth curves' data (growth.ts): one database grown in steps (1×, 10×, 100× the bench's
// data), each step adding rows inside PostgreSQL (INSERT … SELECT generate_series), so a step is a
// few dozen statements. The model of growth, per tenfold of the data: the population grows by
// √10 and what each member has grows by √10 (docs/performance.md, "Growth curves"):
// - community: members 10,000·√s; moments 100,000·s (so √s times as many per member), spread over
//   the same 43 days (the feed's newest page is √s·√s times as dense); 10 likes per moment, from
//   a √s times larger population; each feed reader blocks 20·√s and is blocked by 5·√s of the
//   authors of the newest moments;
// - marketplace: providers 10,000·√s; listings 100,000·s (10·√s per provider) with 3 menu items
//   each, their text drawn from the 1× listings' vocabulary, so a search term matches s times as
//   many listings;
// - inbox: the 20 measured members have 1,000·√s conversations (one message each) and 10,000·√s
//   inbox rows; other members' rows bring the notifications to 200,000·s;
// - chat history: 20 conversations of 5,000·s messages each (one long-lived conversation grows with
//   the data; its deep page is half-way down);
// - orders: 1,000,000·s over all menu items and users, over the same 180 days.
// The 1× listings are the bench's own (seedMarketplace); the rest follows the bench's seeds' shapes.

import { randomUUID } from "node:crypto";
import type { Role } from "@agora/domain/common/actor";
import type pg from "pg";
import { accessToken } from "./seed-community.ts";
import { seedMarketplace } from "./seed-marketplace.ts";

export type Dataset = "community" | "marketplace" | "orders" | "inbox" | "history";

const FEED_READERS = 200;
const INBOX_READERS = 20;
const HISTORY_CONVERSATIONS = 20;
const statuses = ["pending", "confirmed", "in_progress", "completed", "cancelled"];
const nouns = ["House", "Kitchen", "Corner", "Bar", "Shop", "Place", "Works", "Co", "Club", "Hall"];

/** The sizes at scale `s` (1 = today's bench data). */
export const sizesAt = (s: number) => {
  const root = Math.sqrt(s);

  return {
    members: Math.round(10_000 * root),
    moments: 100_000 * s,
    blocksOut: Math.round(20 * root),
    blocksIn: Math.round(5 * root),
    providers: Math.round(10_000 * root),
    listings: 100_000 * s,
    conversationsPerReader: Math.round(1_000 * root),
    inboxPerReader: Math.round(10_000 * root),
    notifications: 200_000 * s,
    historyMessages: 5_000 * s,
    orders: 1_000_000 * s,
  };
};

/** The growth run's tokens last twelve hours: long enough for every step. */
const TOKEN_SECONDS = 12 * 3600;

const sessionsFor = async (client: pg.Client, secret: string, ids: string[], role: Role = "member") => {
  const tokens: string[] = [];
  for (const id of ids) {
    const sessionId = randomUUID();
    await client.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, now())", [
      sessionId,
      id,
    ]);
    tokens.push(await accessToken(secret, id, sessionId, role, TOKEN_SECONDS));
  }

  return tokens;
};

export type GrowthTokens = {
  feed: string[];
  inbox: string[];
  history: { token: string; conversationId: string }[];
  admin: string;
};

const q = async (client: pg.Client, text: string, values: unknown[] = []) => {
  await client.query(text, values);
};

const membersStep = async (client: pg.Client, from: number, to: number) => {
  await q(client, "CREATE TABLE IF NOT EXISTS growth_members (n int PRIMARY KEY, id uuid NOT NULL)");
  await q(
    client,
    "INSERT INTO growth_members SELECT g, gen_random_uuid() FROM generate_series($1::int, $2::int - 1) g",
    [from, to],
  );
  await q(
    client,
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at,
                        created_at, updated_at)
     SELECT id, 'member' || n || '@growth.bench', 'member' || n, 'Member ' || n, '', 'member', 'active',
            now(), now(), now()
       FROM growth_members WHERE n >= $1`,
    [from],
  );
};

/** Moments [from, to): the 1× ones n × 37 s old (as the bench), later ones anywhere in the same 43 days. */
const communityStep = async (client: pg.Client, from: number, to: number, members: number) => {
  await q(client, "DROP TABLE IF EXISTS growth_new_moments");
  await q(
    client,
    `CREATE TEMP TABLE growth_new_moments AS
       SELECT g AS n, gen_random_uuid() AS id,
              CASE WHEN $1 = 0 THEN g % 10000 ELSE floor(random() * $3)::int END AS author_n,
              CASE WHEN $1 = 0 THEN now() - g * interval '37 seconds'
                   ELSE now() - random() * 100000 * interval '37 seconds' END AS created_at
         FROM generate_series($1::int, $2::int - 1) g`,
    [from, to, members],
  );
  await q(
    client,
    `INSERT INTO moments (id, author_id, body, like_count, created_at, hidden_at)
     SELECT m.id, a.id, 'Moment ' || m.n || ': an afternoon by the river, with friends', 10,
            m.created_at, CASE WHEN m.n % 100 = 42 THEN m.created_at END
       FROM growth_new_moments m JOIN growth_members a ON a.n = m.author_n`,
  );
  await q(
    client,
    `INSERT INTO media_assets (id, owner_id, purpose, mime_type, size_bytes, object_key, status, visibility,
                               uploaded_at, attached_at, created_at)
     SELECT m.id, a.id, 'moment', 'image/jpeg', 250000, 'media/' || m.id, 'uploaded', 'public',
            m.created_at, m.created_at, m.created_at
       FROM growth_new_moments m JOIN growth_members a ON a.n = m.author_n
      WHERE m.n % 10 = 3`,
  );
  await q(
    client,
    "INSERT INTO moment_media (moment_id, position, media_asset_id) SELECT id, 0, id FROM growth_new_moments WHERE n % 10 = 3",
  );
  // Ten distinct likers per moment among all members (k × ⌊members / 10⌋ apart), in key order.
  await q(
    client,
    `INSERT INTO moment_likes (moment_id, user_id, created_at)
     SELECT m.id, a.id, m.created_at
       FROM growth_new_moments m
      CROSS JOIN generate_series(0, 9) k
       JOIN growth_members a ON a.n = (m.n * 7 + k * ($1::int / 10)) % $1
      ORDER BY m.id, a.id`,
    [members],
  );
};

/** Each feed reader (members 0-199) blocks `out` and is blocked by `inn` more authors of the 500 newest moments. */
const blocksStep = async (client: pg.Client, out: number, inn: number) => {
  const newest = `SELECT DISTINCT author_id FROM (SELECT author_id FROM moments ORDER BY created_at DESC LIMIT 500) t`;
  for (const [count, forward] of [
    [out, true],
    [inn, false],
  ] as const) {
    if (count <= 0) {
      continue;
    }
    await q(
      client,
      `INSERT INTO user_blocks (blocker_id, blocked_id, created_at)
       SELECT ${forward ? "r.id, b.author_id" : "b.author_id, r.id"}, now()
         FROM growth_members r
        CROSS JOIN LATERAL (SELECT author_id FROM (${newest}) n WHERE n.author_id <> r.id
                             ORDER BY md5(author_id::text || r.n || $2::text) LIMIT $1) b
        WHERE r.n < ${FEED_READERS}
       ON CONFLICT DO NOTHING`,
      [count, `${forward}-${Date.now()}`],
    );
  }
};

/** Providers [fromP, toP) and listings up to `listings`, from the 1× listings' vocabulary. */
const marketplaceStep = async (client: pg.Client, fromP: number, toP: number, fromL: number, toL: number) => {
  if (fromL === 0) {
    await seedMarketplace(client);
    await q(
      client,
      `CREATE TABLE growth_providers AS
         SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id, display_name FROM provider_profiles`,
    );
    await q(
      client,
      `CREATE TABLE growth_vocab AS
         SELECT array_agg(DISTINCT w ORDER BY w) AS words FROM listings, regexp_split_to_table(lower(description), '[^a-z]+') w
          WHERE w NOT IN ('', 'and', 'made', 'daily')`,
    );
    return;
  }
  await q(
    client,
    `INSERT INTO growth_providers
       SELECT g, gen_random_uuid(),
              initcap(v.words[1 + floor(random() * cardinality(v.words))::int] || ' ' ||
                      v.words[1 + floor(random() * cardinality(v.words))::int]) || ' ' ||
              ($3::text[])[1 + floor(random() * 10)::int] || ' ' || g
         FROM generate_series($1::int, $2::int - 1) g, growth_vocab v`,
    [fromP, toP, nouns],
  );
  await q(
    client,
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, created_at, updated_at)
     SELECT md5('u' || id)::uuid, 'bench-' || id || '@example.com', 'bench_' || replace(id::text, '-', ''), display_name,
            '', 'provider', 'active', now(), now()
       FROM growth_providers WHERE n >= $1`,
    [fromP],
  );
  await q(
    client,
    `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, approved_at, created_at, updated_at)
     SELECT id, md5('u' || id)::uuid, display_name, 'approved', now(), now(), now() FROM growth_providers WHERE n >= $1`,
    [fromP],
  );
  // As seedMarketplace: 5% drafts, 5% expired, 5% featured, updated in the last 90 days.
  await q(client, "DROP TABLE IF EXISTS growth_new_listings");
  await q(
    client,
    `CREATE TEMP TABLE growth_new_listings AS
       SELECT gen_random_uuid() AS id, p.id AS provider_id, p.display_name AS provider_name,
              c.ids[1 + floor(random() * cardinality(c.ids))::int] AS category_id,
              initcap(v.words[1 + floor(random() * cardinality(v.words))::int]) || ' ' || ($4::text[])[1 + floor(random() * 10)::int] AS name,
              v.words[1 + floor(random() * cardinality(v.words))::int] || ' ' || v.words[1 + floor(random() * cardinality(v.words))::int]
                || ' and ' || v.words[1 + floor(random() * cardinality(v.words))::int] || ', made daily' AS description,
              x.roll, random() < 0.05 AS featured, now() - random() * interval '90 days' AS updated
         FROM generate_series($1::int, $2::int - 1) g
         CROSS JOIN growth_vocab v
         CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM categories WHERE active) c
         CROSS JOIN LATERAL (SELECT random() AS roll, floor(random() * $3)::int AS pn, g AS gg) x
         JOIN growth_providers p ON p.n = x.pn`,
    [fromL, toL, toP, nouns],
  );
  await q(
    client,
    `INSERT INTO listings (id, provider_id, category_id, name, description, status, subscription_status,
                           subscription_expires_at, featured_until, provider_approved, search_text, created_at, updated_at)
     SELECT id, provider_id, category_id, name, description, CASE WHEN roll < 0.05 THEN 'draft' ELSE 'active' END, 'active',
            now() + CASE WHEN roll >= 0.05 AND roll < 0.1 THEN interval '-1 day' ELSE interval '30 days' END,
            CASE WHEN featured THEN now() + interval '7 days' END, true,
            lower(name || ' ' || description || ' ' || provider_name), updated, updated
       FROM growth_new_listings`,
  );
  await q(
    client,
    `INSERT INTO menu_items (id, listing_id, name, price_amount, currency, created_at, updated_at)
     SELECT gen_random_uuid(), l.id,
            v.words[1 + floor(random() * cardinality(v.words))::int] || ' ' ||
            (ARRAY['plate', 'bowl', 'box', 'set', 'hour'])[1 + floor(random() * 5)::int],
            100 + floor(random() * 5000)::int, 'USD', now(), now()
       FROM growth_new_listings l CROSS JOIN generate_series(1, 3) k CROSS JOIN growth_vocab v`,
  );
};

/** Orders [from, to) over every menu item and user, over 180 days (as the bench's, spread at random). */
const ordersStep = async (client: pg.Client, from: number, to: number) => {
  await q(client, "DROP TABLE IF EXISTS growth_items");
  await q(
    client,
    `CREATE TEMP TABLE growth_items AS
       SELECT (row_number() OVER (ORDER BY m.id) - 1)::int AS n, m.id, m.listing_id, m.name, m.price_amount, l.provider_id
         FROM menu_items m JOIN listings l ON l.id = m.listing_id`,
  );
  await q(client, "ALTER TABLE growth_items ADD PRIMARY KEY (n)");
  await q(client, "DROP TABLE IF EXISTS growth_customers");
  await q(
    client,
    `CREATE TEMP TABLE growth_customers AS SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id FROM users`,
  );
  await q(client, "ALTER TABLE growth_customers ADD PRIMARY KEY (n)");
  const { rows } = await client.query<{ items: number; customers: number }>(
    "SELECT (SELECT count(*)::int FROM growth_items) AS items, (SELECT count(*)::int FROM growth_customers) AS customers",
  );
  const { items = 1, customers = 1 } = rows[0] ?? {};
  for (let start = from; start < to; start += 1_000_000) {
    await q(
      client,
      `INSERT INTO orders (id, customer_id, provider_id, listing_id, menu_item_id, item_name, unit_price_amount,
                           quantity, total_amount, currency, status, payment_status, version, created_at, updated_at)
       SELECT gen_random_uuid(), c.id, i.provider_id, i.listing_id, i.id, i.name, i.price_amount, 1 + g % 3,
              i.price_amount * (1 + g % 3), 'USD', ($4::text[])[1 + g % 5], 'unpaid', 1,
              CASE WHEN g < 1000000 THEN now() - g * interval '15 seconds'
                   ELSE now() - random() * 1000000 * interval '15 seconds' END, now()
         FROM generate_series($1::int, $2::int) g
         JOIN growth_items i ON i.n = (g::bigint * 7919) % $3
         JOIN growth_customers c ON c.n = (g::bigint * 104729) % $5`,
      [start, Math.min(start + 1_000_000, to) - 1, items, statuses, customers],
    );
  }
};

/**
 * The inbox readers' conversations [fromC, toC) each (one message from the partner, a quarter
 * unread) with their chat notices, other inbox rows up to `perReader`, and background rows of other
 * members up to `total` notifications.
 */
const inboxStep = async (
  client: pg.Client,
  c: { from: number; to: number },
  others: { from: number; to: number },
  background: { rows: number; members: number },
) => {
  if (c.from === 0) {
    await q(
      client,
      `CREATE TABLE growth_inbox_readers AS SELECT g AS n, gen_random_uuid() AS id FROM generate_series(0, ${INBOX_READERS - 1}) g`,
    );
    await q(client, "CREATE TABLE growth_partners (n int PRIMARY KEY, id uuid NOT NULL)");
    await q(
      client,
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       SELECT id, 'inbox-reader' || n || '@growth.bench', 'inboxreader' || n, 'Inbox reader ' || n, '', 'member', 'active',
              now(), now(), now()
         FROM growth_inbox_readers`,
    );
  }
  await q(
    client,
    "INSERT INTO growth_partners SELECT g, gen_random_uuid() FROM generate_series($1::int, $2::int - 1) g",
    [c.from, c.to],
  );
  await q(
    client,
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
     SELECT id, 'inbox-partner' || n || '@growth.bench', 'inboxpartner' || n, 'Inbox partner ' || n, '', 'member', 'active',
            now(), now(), now()
       FROM growth_partners WHERE n >= $1`,
    [c.from],
  );
  // Reader r's conversation with partner p: at 1× p × 60 + r seconds old (as the bench); later
  // ones anywhere in the same 17 hours.
  await q(client, "DROP TABLE IF EXISTS growth_new_conversations");
  await q(
    client,
    `CREATE TEMP TABLE growth_new_conversations AS
       SELECT gen_random_uuid() AS id, gen_random_uuid() AS message_id, r.id AS reader_id, p.id AS partner_id, p.n,
              CASE WHEN $1 = 0 THEN now() - (p.n * 60 + r.n) * interval '1 second'
                   ELSE now() - random() * 60000 * interval '1 second' END AS at,
              CASE WHEN p.n % 4 = 0 THEN 0 ELSE 1 END AS read_seq
         FROM growth_inbox_readers r CROSS JOIN growth_partners p WHERE p.n >= $1`,
    [c.from],
  );
  await q(
    client,
    `INSERT INTO conversations (id, user_a_id, user_b_id, last_seq, user_a_read_seq, user_a_read_at,
                                user_b_read_seq, user_b_read_at, created_at, updated_at)
     SELECT id, least(reader_id, partner_id), greatest(reader_id, partner_id), 1,
            CASE WHEN reader_id < partner_id THEN read_seq ELSE 1 END, at,
            CASE WHEN reader_id < partner_id THEN 1 ELSE read_seq END, at, at - interval '1 day', at
       FROM growth_new_conversations`,
  );
  await q(
    client,
    `INSERT INTO chat_messages (id, conversation_id, seq, sender_id, body, message_type, created_at)
     SELECT message_id, id, 1, partner_id, 'Are we still on for Thursday?', 'text', at FROM growth_new_conversations`,
  );
  await q(
    client,
    `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, conversation_id, created_at)
     SELECT gen_random_uuid(), reader_id, gen_random_uuid(), 'message.sent', 'New message',
            'Inbox partner ' || n || ' sent you a message.',
            jsonb_build_object('conversation_id', id, 'message_id', message_id, 'seq', 1), id, at
       FROM growth_new_conversations`,
  );
  await q(
    client,
    `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, read_at, created_at)
     SELECT gen_random_uuid(), r.id, gen_random_uuid(), 'order.status_changed', 'Order confirmed',
            'Your order is confirmed.', jsonb_build_object('order_id', gen_random_uuid()),
            CASE WHEN g % 10 = 0 THEN NULL ELSE now() END,
            CASE WHEN $1 = 0 THEN now() - (g * 61 + r.n) * interval '1 second'
                 ELSE now() - random() * 549000 * interval '1 second' END
       FROM growth_inbox_readers r CROSS JOIN generate_series($1::int, $2::int - 1) g`,
    [others.from, others.to],
  );
  if (background.rows > 0) {
    await q(
      client,
      `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, read_at, created_at)
       SELECT gen_random_uuid(), m.id, gen_random_uuid(), 'moment.liked', 'New like', 'Someone liked your moment.',
              '{}'::jsonb, CASE WHEN g % 10 = 0 THEN NULL ELSE now() END, now() - random() * interval '30 days'
         FROM generate_series(1, $1::int) g JOIN growth_members m ON m.n = (g::bigint * 7919) % $2`,
      [background.rows, background.members],
    );
  }
};

/** The history conversations' messages (from, to], alternating senders, 5 s apart. */
const historyStep = async (client: pg.Client, from: number, to: number) => {
  if (from === 0) {
    await q(
      client,
      `CREATE TABLE growth_history AS
         SELECT g AS n, gen_random_uuid() AS id, gen_random_uuid() AS a, gen_random_uuid() AS b
           FROM generate_series(0, ${HISTORY_CONVERSATIONS - 1}) g`,
    );
    await q(
      client,
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
       SELECT id, 'history-' || side || n || '@growth.bench', 'history' || side || n, 'History ' || side || ' ' || n, '',
              'member', 'active', now(), now(), now()
         FROM (SELECT n, a AS id, 'a' AS side FROM growth_history UNION ALL SELECT n, b, 'b' FROM growth_history) u`,
    );
    await q(
      client,
      `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       SELECT id, least(a, b), greatest(a, b), '2026-01-01', '2026-01-01' FROM growth_history`,
    );
  }
  await q(
    client,
    `INSERT INTO chat_messages (id, conversation_id, seq, sender_id, body, message_type, created_at)
     SELECT gen_random_uuid(), h.id, s, CASE WHEN s % 2 = 0 THEN h.a ELSE h.b END,
            'Message ' || s || ': see you at the usual place?', 'text', '2026-01-01'::timestamptz + s * interval '5 seconds'
       FROM growth_history h CROSS JOIN generate_series($1::int + 1, $2::int) s
      ORDER BY h.id, s`,
    [from, to],
  );
  await q(
    client,
    `UPDATE conversations c SET last_seq = $1::int, user_a_read_seq = $1::int, user_b_read_seq = $1::int,
            user_a_read_at = now(), user_b_read_at = now(),
            updated_at = '2026-01-01'::timestamptz + $1::int * interval '5 seconds'
       FROM growth_history h WHERE c.id = h.id`,
    [to],
  );
};

/**
 * A bulk load as PostgreSQL's manual advises ("Populating a Database"): the tables' secondary
 * indexes dropped and built again after the rows are in (one sort instead of a random insert per
 * row), and, with `replica`, the foreign-key checks off (session_replication_role; the rows are
 * consistent by construction, and these tables have no triggers of their own). The end state is
 * the same database, with the same index definitions.
 */
const bulk = async (client: pg.Client, tables: string[], replica: boolean, work: () => Promise<void>) => {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE schemaname = current_schema() AND tablename = ANY($1)
        AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u', 'x'))`,
    [tables],
  );
  for (const { name } of rows) {
    await q(client, `DROP INDEX "${name}"`);
  }
  if (replica) {
    await q(client, "SET session_replication_role = replica");
  }
  try {
    await work();
  } finally {
    if (replica) {
      await q(client, "SET session_replication_role = DEFAULT");
    }
    await q(client, "SET maintenance_work_mem = '512MB'");
    for (const { definition } of rows) {
      await q(client, definition);
    }
    await q(client, "RESET maintenance_work_mem");
  }
};

/**
 * Grows the database from scale `from` (0 when empty) to scale `to`, for the datasets named.
 * Answers the seconds each part took.
 */
export const growStep = async (
  client: pg.Client,
  from: number,
  to: number,
  datasets: Set<Dataset>,
  log: (line: string) => void,
): Promise<Record<string, number>> => {
  const before = from === 0 ? undefined : sizesAt(from);
  const after = sizesAt(to);
  const seconds: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    seconds[name] = (performance.now() - started) / 1000;
    log(`    ${name}: ${seconds[name]?.toFixed(1)} s`);
  };
  await timed("members", () => membersStep(client, before?.members ?? 0, after.members));
  if (datasets.has("community")) {
    await timed("community", async () => {
      await bulk(client, ["moments", "moment_likes", "moment_media", "media_assets"], true, () =>
        communityStep(client, before?.moments ?? 0, after.moments, after.members),
      );
      await blocksStep(
        client,
        after.blocksOut - (before?.blocksOut ?? 0),
        after.blocksIn - (before?.blocksIn ?? 0),
      );
    });
  }
  if (datasets.has("marketplace") || datasets.has("orders")) {
    // Listings and menu items keep their triggers (the public counts, the catalog stamp, the item names).
    await timed("marketplace", () =>
      bulk(client, ["listings", "menu_items"], false, () =>
        marketplaceStep(
          client,
          before?.providers ?? 0,
          after.providers,
          before?.listings ?? 0,
          after.listings,
        ),
      ),
    );
  }
  if (datasets.has("orders")) {
    await timed("orders", () =>
      bulk(client, ["orders"], true, () => ordersStep(client, before?.orders ?? 0, after.orders)),
    );
  }
  if (datasets.has("inbox")) {
    const readerRows = (s: ReturnType<typeof sizesAt> | undefined) =>
      s ? s.inboxPerReader * INBOX_READERS : 0;
    const backgroundBefore = before ? before.notifications - readerRows(before) : 0;
    await timed("inbox", () =>
      bulk(client, ["notifications", "conversations", "chat_messages"], true, () =>
        inboxStep(
          client,
          { from: before?.conversationsPerReader ?? 0, to: after.conversationsPerReader },
          {
            from: before ? before.inboxPerReader - before.conversationsPerReader : 0,
            to: after.inboxPerReader - after.conversationsPerReader,
          },
          {
            rows: Math.max(0, after.notifications - readerRows(after) - backgroundBefore),
            members: after.members,
          },
        ),
      ),
    );
  }
  if (datasets.has("history")) {
    await timed("history", () =>
      bulk(client, ["conversations", "chat_messages"], true, () =>
        historyStep(client, before?.historyMessages ?? 0, after.historyMessages),
      ),
    );
  }
  // As autovacuum leaves a table in production: statistics current, visibility map set.
  await timed("vacuum analyze", () => q(client, "VACUUM ANALYZE"));

  return seconds;
};

/** Sessions and access tokens for the measured members, written once (after the first step). */
export const growthTokens = async (
  client: pg.Client,
  secret: string,
  datasets: Set<Dataset>,
): Promise<GrowthTokens> => {
  const ids = async (text: string) => (await client.query<{ id: string }>(text)).rows.map((row) => row.id);
  const adminId = randomUUID();
  await q(
    client,
    `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at, created_at, updated_at)
     VALUES ($1, 'admin@growth.bench', 'growthadmin', 'Growth Admin', '', 'admin', 'active', now(), now(), now())`,
    [adminId],
  );
  const history = datasets.has("history")
    ? (await client.query<{ id: string; a: string }>("SELECT id, a FROM growth_history ORDER BY n")).rows
    : [];
  const historyTokens = await sessionsFor(
    client,
    secret,
    history.map((row) => row.a),
  );

  return {
    feed: await sessionsFor(
      client,
      secret,
      await ids(`SELECT id FROM growth_members WHERE n < ${FEED_READERS} ORDER BY n`),
    ),
    inbox: datasets.has("inbox")
      ? await sessionsFor(client, secret, await ids("SELECT id FROM growth_inbox_readers ORDER BY n"))
      : [],
    history: history.map((row, i) => ({ token: historyTokens[i] ?? "", conversationId: row.id })),
    admin: (await sessionsFor(client, secret, [adminId], "admin"))[0] ?? "",
  };
};
