import { randomUUID } from "node:crypto";
import { sessionLive } from "@agora/domain/identity/identity.policy";
import { type SessionLivenessFacts, userStatuses } from "@agora/domain/identity/identity.types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeActorCountingStatement,
  activeActorStatement,
  createSessionRepository,
  liveSessionAt,
} from "../src/repositories/identity/sessions.repository";
import { createOrderRepository } from "../src/repositories/orders/orders.repository";
import { createRateLimiter } from "../src/repositories/rate-limits.repository";
import { createTestDatabase, type TestDatabase } from "./databases";
import {
  at,
  parameterTypes,
  plan,
  planModes,
  recording,
  rolledBack,
  type SentStatement,
  sentNamed,
} from "./rule-plans";

/** SESSION_MAX_AGE_SECONDS of the test: one day. */
const maxAgeSeconds = 86_400;
const maxAge = maxAgeSeconds * 1000;
/**
 * Every kind of sign-in time against `at` and the lifetime: later than `at` (a clock ahead), an
 * hour ago, one millisecond before its end, exactly at its end (over), and past it.
 */
const signIns = {
  ahead: new Date(at.getTime() + 60_000),
  recent: new Date(at.getTime() - 3600_000),
  lastMillisecond: new Date(at.getTime() - maxAge + 1),
  end: new Date(at.getTime() - maxAge),
  past: new Date(at.getTime() - maxAge - 3600_000),
};
/** Revocation: none, or revoked (when does not matter: a revoked session stays revoked). */
const revocations = { none: null, revoked: new Date(at.getTime() - 60_000) };

type Session = SessionLivenessFacts & {
  id: string;
  userId: string;
  signIn: keyof typeof signIns;
  revocation: keyof typeof revocations;
};

/** A user of every status, each the owner of that status's sessions. */
const users = userStatuses.map((status) => ({ id: randomUUID(), status }));

/** Every combination of the facts liveness is decided from (2 × 4 × 5 = 40). */
const sessions: Session[] = (Object.keys(revocations) as (keyof typeof revocations)[]).flatMap((revocation) =>
  users.flatMap((user) =>
    (Object.keys(signIns) as (keyof typeof signIns)[]).map((signIn) => ({
      id: randomUUID(),
      userId: user.id,
      userStatus: user.status,
      revokedAt: revocations[revocation],
      createdAt: signIns[signIn],
      revocation,
      signIn,
    })),
  ),
);

const live = (session: Session) => sessionLive(session, maxAgeSeconds, at);
const label = (session: Session) => `${session.revocation}/${session.userStatus}/${session.signIn}`;

/**
 * The live session is one SQL function (session_live) and one domain function of the same name
 * (sessionLive): they agree on every combination of the facts, every statement that decides
 * liveness (the per-request check, its counting form, the realtime sockets' check, the order's
 * write) answers exactly what the domain decides, and PostgreSQL plans the function as it planned
 * the conditions written out, the hot statements with the plan they had before the absolute age
 * joined the rule.
 */
describe("the live session: one rule in SQL and in the domain", () => {
  let target: TestDatabase;
  const sent: SentStatement[] = [];
  const item = { id: randomUUID(), listing: randomUUID(), provider: randomUUID() };

  beforeAll(async () => {
    target = await createTestDatabase();
    const sql = target.db.sql;
    await sql.query(
      `INSERT INTO users (id, email, username, password_hash, role, status, created_at, updated_at)
       SELECT id, id || '@example.test', 'u' || replace(id::text, '-', ''), 'x', 'member', status, $3, $3
         FROM unnest($1::uuid[], $2::text[]) AS t(id, status)`,
      [users.map((user) => user.id), users.map((user) => user.status), at],
    );
    await sql.query(
      `INSERT INTO sessions (id, user_id, created_at, revoked_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[])`,
      [
        sessions.map((session) => session.id),
        sessions.map((session) => session.userId),
        sessions.map((session) => session.createdAt),
        sessions.map((session) => session.revokedAt),
      ],
    );
    // An orderable item, for the order's write (whose session check is the one that may fail).
    const [service, category, owner] = [randomUUID(), randomUUID(), randomUUID()];
    await sql.exec(`
      INSERT INTO services (id, slug, name) VALUES ('${service}', 'food-${service}', 'Food');
      INSERT INTO categories (id, service_id, slug, name) VALUES ('${category}', '${service}', 'soup-${category}', 'Soup');
      INSERT INTO users (id, email, username, password_hash, role, status)
      VALUES ('${owner}', '${owner}@example.test', 'o${owner.replaceAll("-", "")}', 'x', 'provider', 'active');
      INSERT INTO provider_profiles (id, user_id, display_name, approval_status, created_at, updated_at)
      VALUES ('${item.provider}', '${owner}', 'Ladle Co', 'approved', now(), now());
      INSERT INTO listings (id, provider_id, category_id, name, status, subscription_status, subscription_expires_at,
                            provider_approved, owner_active, search_text, created_at, updated_at)
      VALUES ('${item.listing}', '${item.provider}', '${category}', 'Ladle', 'active', 'active',
              '${new Date(at.getTime() + 72 * 3600_000).toISOString()}', true, true, 'ladle', now(), now());
      INSERT INTO menu_items (id, listing_id, name, price_amount, currency, created_at, updated_at)
      VALUES ('${item.id}', '${item.listing}', 'Stew', 900, 'EUR', now(), now());
    `);
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("has the SQL function and the domain's agree on every combination (NULL, as in WHERE, is not live)", async () => {
    const { rows } = await target.db.sql.query<{ live: boolean }>(
      `SELECT session_live(revoked, created, status, $4, $5) IS TRUE AS live
         FROM unnest($1::timestamptz[], $2::timestamptz[], $3::text[]) WITH ORDINALITY AS t(revoked, created, status, n)
        ORDER BY n`,
      [
        sessions.map((session) => session.revokedAt),
        sessions.map((session) => session.createdAt),
        sessions.map((session) => session.userStatus),
        maxAgeSeconds,
        at,
      ],
    );
    expect(sessions.map((session, index) => [label(session), rows[index]?.live])).toEqual(
      sessions.map((session) => [label(session), live(session)]),
    );
    // Not vacuous: of the 40, the unrevoked sessions of the active user signed in ahead, recently
    // or a millisecond before the end are live.
    expect(sessions.length).toBe(40);
    expect(sessions.filter(live).map(label)).toEqual([
      "none/active/ahead",
      "none/active/recent",
      "none/active/lastMillisecond",
    ]);
  });

  it("answers from every statement deciding liveness exactly what the domain decides", async () => {
    const db = recording(target.db.sql, sent);
    const repository = createSessionRepository(db);
    const expected = sessions.filter(live).map((session) => session.id);
    const answered = (found: unknown[]) =>
      sessions.filter((_, index) => found[index]).map((session) => session.id);

    // The per-request check.
    const actors = await Promise.all(
      sessions.map((session) => repository.findActiveActor(session.id, at, maxAgeSeconds)),
    );
    expect(answered(actors)).toEqual(expected);
    expect(actors.filter((actor) => actor !== null).map((actor) => actor.userId)).toEqual(
      sessions.filter(live).map((session) => session.userId),
    );

    // Its counting form: an actor, and a hit counted, exactly for the live sessions.
    const key = (session: Session) => `write:test:session:${session.id}`;
    const counted = [];
    for (const session of sessions) {
      counted.push(
        await repository.findActiveActorCounting(
          session.id,
          session.userId,
          { key: key(session), limit: 5, windowSeconds: 3600, now: at },
          maxAgeSeconds,
        ),
      );
    }
    expect(answered(counted)).toEqual(expected);
    const hits = await createRateLimiter(target.db.sql).peek(sessions.map(key), 3600, at);
    expect(answered(hits.map((hit) => (hit?.hits ?? 0) > 0))).toEqual(expected);

    // The realtime sockets' check.
    const filtered = await repository.filterActive(
      sessions.map((session) => session.id),
      at,
      maxAgeSeconds,
    );
    expect([...filtered].sort()).toEqual([...expected].sort());

    // The owner's session list: each user's live sessions, exactly.
    for (const user of users) {
      const listed = await repository.listLive(user.id, at, maxAgeSeconds, 100);
      expect(listed.map((session) => session.id).sort(), user.status).toEqual(
        sessions
          .filter((session) => session.userId === user.id && live(session))
          .map((session) => session.id)
          .sort(),
      );
    }

    // Ending one's own session: found for each of the owner's sessions, revoked exactly when live
    // (in a rolled-back transaction, so the rows stay as the other checks read them).
    await rolledBack(target.db, async (tx) => {
      const ending = createSessionRepository(recording(tx, sent));
      for (const session of sessions) {
        // Not another user's (one with no sessions): nothing found, nothing revoked.
        expect(await ending.endOwn(randomUUID(), session.id, "test", at, maxAgeSeconds)).toBe(false);
        expect(await ending.endOwn(session.userId, session.id, "test", at, maxAgeSeconds)).toBe(true);
      }
      const { rows } = await tx.query<{ id: string }>(
        "SELECT id FROM sessions WHERE revoke_reason = 'test' AND revoked_at = $1",
        [at],
      );
      expect(rows.map((row) => row.id).sort()).toEqual([...expected].sort());
    });

    // The order's own write, at the order's time: placed exactly for the live sessions.
    const orders = createOrderRepository(db);
    const outcomes: string[] = [];
    for (const session of sessions) {
      const id = randomUUID();
      outcomes.push(
        await orders.place(
          {
            id,
            customerId: session.userId,
            guestEmail: null,
            guestPhone: null,
            guestTokenHash: null,
            guestTokenExpiresAt: null,
            guestTokenSealed: null,
            providerId: item.provider,
            listingId: item.listing,
            menuItemId: item.id,
            itemName: "Stew",
            unitPriceAmount: 900,
            quantity: 1,
            totalAmount: 900,
            currency: "EUR",
            notes: null,
            scheduleAt: null,
            createdAt: at,
            updatedAt: at,
          },
          { id: randomUUID(), kind: "order.created", aggregateType: "order", aggregateId: id, payload: {} },
          undefined,
          { id: session.id, maxAgeSeconds },
        ),
      );
    }
    expect(sessions.map((session, index) => [label(session), outcomes[index]])).toEqual(
      sessions.map((session) => [label(session), live(session) ? "placed" : "stale"]),
    );
  });

  /** The rule written out (what the function inlines to: its lifetime argument is an integer). */
  const writtenOut = (now: string, max: string) =>
    `(s.revoked_at IS NULL AND u.status = 'active' AND ${now} - s.created_at < make_interval(secs => ${max}::int))`;
  /** The conditions the statements had before the rule was a function, without the absolute age. */
  const before = "(s.revoked_at IS NULL AND u.status = 'active')";
  /** A plan without its filters: the nodes, the indexes and their conditions. */
  const shape = (text: string) =>
    text
      .split("\n")
      .filter((line) => !/^\s*(Filter|One-Time Filter):/.test(line))
      .join("\n");

  it("plans every statement deciding liveness as the written-out conditions did, and the hot ones as before the age joined", async () => {
    const session = sessions.find(live);
    if (!session) {
      throw new Error("no live session");
    }
    const about = sent.filter((one) => one.values.includes(session.id));
    const planned = [
      [sentNamed(about, "sessions_active_actor"), ["$2", "$3"]],
      [sentNamed(about, "sessions_active_actor_counting"), ["$4", "$6"]],
      [sentNamed(sent, "sessions_filter_active"), ["$2", "$3"]],
      [sentNamed(sent, "sessions_list_live"), ["$2", "$3"]],
      [sentNamed(about, "sessions_end_own"), ["$4", "$5"]],
      [sentNamed(about, "orders_place"), ["$17::timestamptz", "$25::int"]],
    ] as const;
    expect(sentNamed(about, "sessions_active_actor").text).toBe(activeActorStatement.text);
    expect(sentNamed(about, "sessions_active_actor_counting").text).toBe(activeActorCountingStatement.text);
    await rolledBack(target.db, async (tx) => {
      // Tables this small are cheapest read whole: without that, the plans show the indexes.
      await tx.exec("SET LOCAL enable_seqscan = off");
      for (const [statement, args] of planned) {
        const call = liveSessionAt(args[0], args[1]);
        expect(statement.text, statement.name).toContain(call);
        const types = await parameterTypes(tx, statement.text);
        for (const mode of planModes) {
          const now = await plan(tx, statement.text, statement.values, mode);
          const written = statement.text.replaceAll(call, writtenOut(args[0], args[1]));
          expect({ name: statement.name, mode, plan: now }).toEqual({
            name: statement.name,
            mode,
            plan: await plan(tx, written, statement.values, mode),
          });
          // The same nodes on the same indexes as the statement before the rule (only a filter
          // gained the age), whose parameters had these types, the lifetime's unused.
          const old = statement.text.replaceAll(call, before);
          expect({ name: statement.name, mode, plan: shape(now) }).toEqual({
            name: statement.name,
            mode,
            plan: shape(await plan(tx, old, statement.values, mode, types)),
          });
        }
      }
    });
  });
});
