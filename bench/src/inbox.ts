// The inbox and the conversation list at scale (issue 29): 20 members, each with 1,000
// conversations (one message each, a quarter unread) and 10,000 inbox rows (a chat notice per
// conversation, 9,000 others, a tenth unread), generated inside PostgreSQL (generate_series), so
// the load is a handful of statements. Each row is measured beside the raw reference (reference.ts)
// answering the same JSON from the same statements.
import { randomUUID } from "node:crypto";
import { withClient } from "./data.ts";
import type { BenchContext, Scenario } from "./scenario.types.ts";
import { accessToken } from "./seed-community.ts";

const READERS = 20;
const CONVERSATIONS_PER_READER = 1_000;
const INBOX_PER_READER = 10_000;

type SeededInbox = { readerTokens: string[] };

const seedInbox = ({ databaseUrl, tokenSecret }: Pick<BenchContext, "databaseUrl" | "tokenSecret">) =>
  withClient(databaseUrl, async (client): Promise<SeededInbox> => {
    await client.query(`CREATE TEMP TABLE inbox_readers AS
                          SELECT g AS n, gen_random_uuid() AS id FROM generate_series(0, ${READERS - 1}) g`);
    await client.query(`CREATE TEMP TABLE inbox_partners AS
                          SELECT g AS n, gen_random_uuid() AS id
                            FROM generate_series(0, ${CONVERSATIONS_PER_READER - 1}) g`);
    await client.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, email_verified_at,
                          created_at, updated_at)
       SELECT id, 'inbox-' || kind || n || '@inbox.bench', 'inbox' || kind || n, 'Inbox ' || kind || ' ' || n, '',
              'member', 'active', now(), now(), now()
         FROM (SELECT 'reader' AS kind, n, id FROM inbox_readers
               UNION ALL SELECT 'partner', n, id FROM inbox_partners) u`,
    );
    // Reader r's conversation with partner p: one message from p, p × 60 + r seconds old; unread
    // by the reader when p is a multiple of 4.
    await client.query(`CREATE TEMP TABLE inbox_conversations AS
      SELECT gen_random_uuid() AS id, gen_random_uuid() AS message_id, r.id AS reader_id, p.id AS partner_id,
             p.n AS n, now() - (p.n * 60 + r.n) * interval '1 second' AS at, CASE WHEN p.n % 4 = 0 THEN 0 ELSE 1 END AS read_seq
        FROM inbox_readers r CROSS JOIN inbox_partners p`);
    await client.query(
      `INSERT INTO conversations (id, user_a_id, user_b_id, last_seq, user_a_read_seq, user_a_read_at,
                                  user_b_read_seq, user_b_read_at, created_at, updated_at)
       SELECT id, least(reader_id, partner_id), greatest(reader_id, partner_id), 1,
              CASE WHEN reader_id < partner_id THEN read_seq ELSE 1 END, at,
              CASE WHEN reader_id < partner_id THEN 1 ELSE read_seq END, at,
              at - interval '1 day', at
         FROM inbox_conversations`,
    );
    await client.query(
      `INSERT INTO chat_messages (id, conversation_id, seq, sender_id, body, message_type, created_at)
       SELECT message_id, id, 1, partner_id, 'Are we still on for Thursday?', 'text', at FROM inbox_conversations`,
    );
    // The chat notice of each conversation, and 9,000 order notices per reader, one a minute.
    await client.query(
      `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, conversation_id, created_at)
       SELECT gen_random_uuid(), reader_id, gen_random_uuid(), 'message.sent', 'New message',
              'Inbox partner ' || n || ' sent you a message.',
              jsonb_build_object('conversation_id', id, 'message_id', message_id, 'seq', 1), id, at
         FROM inbox_conversations`,
    );
    await client.query(
      `INSERT INTO notifications (id, user_id, event_id, kind, title, body, data, read_at, created_at)
       SELECT gen_random_uuid(), r.id, gen_random_uuid(), 'order.status_changed', 'Order confirmed',
              'Your order is confirmed.', jsonb_build_object('order_id', gen_random_uuid()),
              CASE WHEN g % 10 = 0 THEN NULL ELSE now() END, now() - (g * 61 + r.n) * interval '1 second'
         FROM inbox_readers r CROSS JOIN generate_series(0, ${INBOX_PER_READER - CONVERSATIONS_PER_READER - 1}) g`,
    );
    await client.query("ANALYZE users, conversations, chat_messages, notifications");
    const { rows } = await client.query<{ id: string }>("SELECT id FROM inbox_readers ORDER BY n");
    const readerTokens: string[] = [];
    for (const { id } of rows) {
      const sessionId = randomUUID();
      await client.query("INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, now())", [
        sessionId,
        id,
      ]);
      readerTokens.push(await accessToken(tokenSecret, id, sessionId));
    }

    return { readerTokens };
  });

let seeded: Promise<SeededInbox> | undefined;
const inboxData = (context: BenchContext) => {
  seeded ??= seedInbox(context);

  return seeded;
};

const readers = async (context: BenchContext) => ({
  headerSets: (await inboxData(context)).readerTokens.map((token) => ({ authorization: `Bearer ${token}` })),
});

export const inboxScenarios: Scenario[] = [
  {
    // The first page (50 of 10,000 rows, chat notices' state read from their conversations) and
    // the unread count, for 20 members in turn.
    name: "GET /notifications (10k rows per member)",
    request: { path: "/api/v1/notifications" },
    connections: [50],
    prepare: readers,
  },
  {
    // The first page of 1,000 conversations (newest message of each) and the unread count.
    name: "GET /chat/conversations (1,000 per member)",
    request: { path: "/api/v1/chat/conversations" },
    connections: [50],
    prepare: readers,
  },
];
