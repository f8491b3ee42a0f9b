// What the proof needs in the database, written straight to it (sign-in mails codes, which a load
// test cannot read): two providers with an orderable item each, members with live sessions and
// access tokens as the API signs them, and conversations between pairs of members.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { accessToken, insertUsers } from "../seed-community.ts";

export type Member = { id: string; token: string };
export type Provider = { userId: string; itemId: string };
export type ProofWorld = {
  /** Takes the load of the order phases. */
  busy: Provider;
  /** Its user row is what the worker-kill phase locks (its deliveries wait on it). */
  held: Provider;
  members: Member[];
  conversations: { id: string; sender: Member; recipient: Member }[];
};

/** The proof's members' tokens last two hours: longer than any proof run. */
const TOKEN_SECONDS = 2 * 3600;

const provider = async (client: pg.Client, categoryId: string, name: string): Promise<Provider> => {
  const userId = randomUUID();
  const profileId = randomUUID();
  const listingId = randomUUID();
  const itemId = randomUUID();
  await insertUsers(client, { ids: [userId], prefix: "proof", displayName: "Proof", role: "provider" });
  await client.query(
    `INSERT INTO provider_profiles (id, user_id, display_name, approval_status, approved_at, created_at, updated_at)
     VALUES ($1, $2, $3, 'approved', now(), now(), now())`,
    [profileId, userId, name],
  );
  await client.query(
    `INSERT INTO listings (id, provider_id, category_id, name, description, status, subscription_status,
                           subscription_expires_at, provider_approved, search_text, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'Proof listing', 'active', 'active', now() + interval '30 days', true, $4, now(), now())`,
    [listingId, profileId, categoryId, name],
  );
  await client.query(
    `INSERT INTO menu_items (id, listing_id, name, price_amount, currency, created_at, updated_at)
     VALUES ($1, $2, 'Tea', 350, 'USD', now(), now())`,
    [itemId, listingId],
  );

  return { userId, itemId };
};

export const seedWorld = async (
  client: pg.Client,
  tokenSecret: string,
  sizes: { members: number; conversations: number },
): Promise<ProofWorld> => {
  const { rows } = await client.query<{ id: string }>(
    "SELECT id FROM categories WHERE active ORDER BY id LIMIT 1",
  );
  const categoryId = rows[0]?.id;
  if (!categoryId) {
    throw new Error("no active category: the catalog was not seeded");
  }
  const busy = await provider(client, categoryId, "Proof Busy Kitchen");
  const held = await provider(client, categoryId, "Proof Held Kitchen");

  const count = Math.max(sizes.members, sizes.conversations * 2);
  const ids = Array.from({ length: count }, () => randomUUID());
  const sessions = ids.map(() => randomUUID());
  await insertUsers(client, { ids, sessions, prefix: "proof", displayName: "Proof" });
  const members = await Promise.all(
    ids.map(async (id, index) => ({
      id,
      token: await accessToken(tokenSecret, id, sessions[index] ?? "", "member", TOKEN_SECONDS),
    })),
  );

  const conversations = Array.from({ length: sizes.conversations }, (_, index) => {
    const sender = members[index * 2] as Member;
    const recipient = members[index * 2 + 1] as Member;

    return { id: randomUUID(), sender, recipient };
  });
  await client.query(
    `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
     SELECT id, least(a, b), greatest(a, b), now(), now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t(id, a, b)`,
    [
      conversations.map((conversation) => conversation.id),
      conversations.map((conversation) => conversation.sender.id),
      conversations.map((conversation) => conversation.recipient.id),
    ],
  );

  return { busy, held, members, conversations };
};
