import { randomUUID } from "node:crypto";
import type { Actor } from "@agora/domain/common/actor";
import { NotFoundError } from "@agora/domain/common/app-error";
import { BlockedError } from "@agora/domain/community/blocks.policy";
import {
  findVisibleMoment,
  type MomentVisibilityFacts,
  momentVisible,
  momentVisibleIfUnblocked,
} from "@agora/domain/community/moments.policy";
import { authorPresent } from "@agora/domain/identity/identity.policy";
import { type UserStatus, userStatuses } from "@agora/domain/identity/identity.types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedStatement } from "../src/repositories/community/moment-queries";
import { createMomentRepository } from "../src/repositories/community/moments.repository";
import { createBlockRepository } from "../src/repositories/community/user-blocks.repository";
import { createMediaAssetRepository } from "../src/repositories/media/media-assets.repository";
import type { SqlExecutor } from "../src/sql";
import { createTestDatabase, type TestDatabase } from "./databases";

const booleans = [true, false] as const;

/** Every combination of the facts moment_visible_if_unblocked decides from (2 × 2 × 2 = 8). */
const unblockedCombinations = booleans.flatMap((isAuthor) =>
  booleans.flatMap((hidden) => booleans.map((authorPresent) => ({ isAuthor, hidden, authorPresent }))),
);

/** Who blocks whom between the viewer and an author (the block rule: either way). */
const blockKinds = ["none", "viewer_blocks", "author_blocks", "both"] as const;
type BlockKind = (typeof blockKinds)[number];

const at = new Date(Date.UTC(2030, 5, 1, 12));

/**
 * Moment visibility and author presence are SQL functions (moment_visible_if_unblocked and
 * author_present, migration 20261210000000_moment_visibility_rule) with domain mirrors of the same
 * names: they agree on every combination of the facts; the feed, the media read's facts and the
 * single read (findVisibleMoment over the repositories) answer exactly what the domain's whole
 * rule (momentVisible) decides, over every combination a database can hold; and the feed plans
 * exactly as the conditions written out did (the functions inlined).
 */
describe("moment visibility and author presence: one rule in SQL and in the domain", () => {
  let target: TestDatabase;

  /**
   * The world: a viewer of each account status, an author of each status for each kind of block
   * with every viewer, and two moments (one hidden by moderation) by each of them, each with one
   * public image. Between the viewers, no block.
   */
  const viewers = userStatuses.map((status) => ({ id: randomUUID(), status }));
  const authors = userStatuses.flatMap((status) =>
    blockKinds.map((block) => ({ id: randomUUID(), status, block })),
  );
  const people: { id: string; status: UserStatus; block?: BlockKind }[] = [...viewers, ...authors];
  const moments = people.flatMap((author, index) =>
    booleans.map((hidden, second) => ({
      id: randomUUID(),
      assetId: randomUUID(),
      author,
      hidden,
      // Newest first in the order they are listed here: a page walk visits them in this order.
      createdAt: new Date(at.getTime() - (index * 2 + second + 1) * 1000),
    })),
  );
  type Seeded = (typeof moments)[number];

  /** The facts of `moment` for `viewer`, as the world above holds them. */
  const factsOf = (viewer: { id: string }, moment: Seeded): MomentVisibilityFacts => ({
    isAuthor: moment.author.id === viewer.id,
    hidden: moment.hidden,
    authorPresent: authorPresent(moment.author.status),
    blockedEitherWay: moment.author.block !== undefined && moment.author.block !== "none",
  });
  const visibleTo = (viewer: { id: string }) =>
    moments.filter((moment) => momentVisible(factsOf(viewer, moment))).map((moment) => moment.id);

  beforeAll(async () => {
    target = await createTestDatabase();
    const sql = target.db.sql;
    await sql.query(
      `INSERT INTO users (id, email, username, password_hash, role, status)
       SELECT id, id || '@example.test', 'm' || replace(id::text, '-', ''), 'x', 'member', status
         FROM unnest($1::uuid[], $2::text[]) AS t(id, status)`,
      [people.map((person) => person.id), people.map((person) => person.status)],
    );
    const blocks = authors.flatMap((author) =>
      viewers.flatMap((viewer) => [
        ...(author.block === "viewer_blocks" || author.block === "both" ? [[viewer.id, author.id]] : []),
        ...(author.block === "author_blocks" || author.block === "both" ? [[author.id, viewer.id]] : []),
      ]),
    );
    await sql.query(
      `INSERT INTO user_blocks (blocker_id, blocked_id, created_at)
       SELECT blocker, blocked, $3 FROM unnest($1::uuid[], $2::uuid[]) AS t(blocker, blocked)`,
      [blocks.map(([blocker]) => blocker), blocks.map(([, blocked]) => blocked), at],
    );
    await sql.query(
      `INSERT INTO moments (id, author_id, body, created_at, hidden_at)
       SELECT id, author, 'A walk by the river', created, CASE WHEN hidden THEN created END
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::boolean[]) AS t(id, author, created, hidden)`,
      [
        moments.map((moment) => moment.id),
        moments.map((moment) => moment.author.id),
        moments.map((moment) => moment.createdAt),
        moments.map((moment) => moment.hidden),
      ],
    );
    await sql.query(
      `INSERT INTO media_assets (id, owner_id, purpose, mime_type, size_bytes, object_key, status, visibility,
                                 uploaded_at, attached_at, created_at)
       SELECT asset, author, 'moment', 'image/jpeg', 1000, 'media/' || asset, 'uploaded', 'public', $3, $3, $3
         FROM unnest($1::uuid[], $2::uuid[]) AS t(asset, author)`,
      [moments.map((moment) => moment.assetId), moments.map((moment) => moment.author.id), at],
    );
    await sql.query(
      `INSERT INTO moment_media (moment_id, position, media_asset_id)
       SELECT moment, 0, asset FROM unnest($1::uuid[], $2::uuid[]) AS t(moment, asset)`,
      [moments.map((moment) => moment.id), moments.map((moment) => moment.assetId)],
    );
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("has author_present and authorPresent agree on every account status (and NULL, unknown, absent)", async () => {
    const { rows } = await target.db.sql.query<{ status: string | null; present: boolean }>(
      `SELECT status, author_present(status) IS TRUE AS present
         FROM unnest($1::text[]) WITH ORDINALITY AS t(status, n) ORDER BY n`,
      [[...userStatuses, null]],
    );
    expect(rows).toEqual([
      ...userStatuses.map((status) => ({ status, present: authorPresent(status) })),
      { status: null, present: false },
    ]);
    expect(userStatuses.filter(authorPresent)).toEqual(["active"]);
  });

  it("has moment_visible_if_unblocked and momentVisibleIfUnblocked agree on every combination (NULL, as in WHERE, is not visible)", async () => {
    const { rows } = await target.db.sql.query<{ visible: boolean }>(
      `SELECT moment_visible_if_unblocked(is_author, hidden, present) IS TRUE AS visible
         FROM unnest($1::boolean[], $2::boolean[], $3::boolean[]) WITH ORDINALITY AS t(is_author, hidden, present, n)
        ORDER BY n`,
      [
        unblockedCombinations.map((c) => c.isAuthor),
        unblockedCombinations.map((c) => c.hidden),
        unblockedCombinations.map((c) => c.authorPresent),
      ],
    );
    const label = (c: (typeof unblockedCombinations)[number]) =>
      `author=${c.isAuthor}/hidden=${c.hidden}/present=${c.authorPresent}`;
    expect(unblockedCombinations.map((c, index) => [label(c), rows[index]?.visible])).toEqual(
      unblockedCombinations.map((c) => [label(c), momentVisibleIfUnblocked(c)]),
    );
    // Not vacuous: the author's four, and one of the others' (not hidden, author present).
    expect(unblockedCombinations.filter(momentVisibleIfUnblocked).length).toBe(5);
    // An unknown fact never shows a moment to another: NULL for hidden or presence is not visible.
    const { rows: unknown } = await target.db.sql.query<{ hidden: boolean; present: boolean }>(
      `SELECT moment_visible_if_unblocked(false, NULL, true) IS TRUE AS hidden,
              moment_visible_if_unblocked(false, false, NULL) IS TRUE AS present`,
    );
    expect(unknown).toEqual([{ hidden: false, present: false }]);
  });

  it("covers every combination of the whole rule's facts a database can hold (an author never blocks themself)", () => {
    const seen = new Set(
      viewers.flatMap((viewer) => moments.map((moment) => JSON.stringify(factsOf(viewer, moment)))),
    );
    const possible = unblockedCombinations.flatMap((c) =>
      booleans
        .filter((blockedEitherWay) => !(c.isAuthor && blockedEitherWay))
        .map((blockedEitherWay) => JSON.stringify({ ...c, blockedEitherWay })),
    );
    expect([...seen].sort()).toEqual([...possible].sort());
    expect(possible.length).toBe(12);
  });

  it("returns from the feed, page after page, exactly the moments the domain calls visible, newest first", async () => {
    const repository = createMomentRepository(target.db.sql);
    for (const viewer of viewers) {
      const whole = await repository.listFeed(viewer.id, { before: undefined, limit: 200 });
      expect({ viewer: viewer.status, ids: whole.map((moment) => moment.id) }).toEqual({
        viewer: viewer.status,
        ids: visibleTo(viewer),
      });
      // The cursor's statement applies the same rule.
      const walked: string[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await repository.listFeed(viewer.id, { before, limit: 7 });
        walked.push(...page.map((moment) => moment.id));
        before = page.at(-1)?.id;
        if (page.length < 7) {
          break;
        }
      }
      expect(walked).toEqual(visibleTo(viewer));
      // Each returned moment says the facts the domain decides single reads from.
      for (const moment of whole) {
        const seeded = moments.find((candidate) => candidate.id === moment.id);
        expect(seeded && { hidden: moment.hidden, authorActive: moment.authorActive }).toEqual(
          seeded && { hidden: seeded.hidden, authorActive: authorPresent(seeded.author.status) },
        );
      }
    }
    // Not vacuous: the active viewer sees its own two and the moment not hidden of the active author
    // it has no block with (the other viewers are not active).
    expect(viewers[1]?.status).toBe("active");
    expect(visibleTo(viewers[1] ?? { id: "" })).toHaveLength(3);
  });

  it("answers the media read's fact and the single read (404 unless visible if unblocked, then 403 across a block) as the domain decides", async () => {
    const media = createMediaAssetRepository(target.db.sql);
    const repos = {
      moments: createMomentRepository(target.db.sql),
      blocks: createBlockRepository(target.db.sql),
    };
    for (const viewer of viewers) {
      const actor: Actor = { userId: viewer.id, role: "member", sessionId: randomUUID() };
      for (const moment of moments) {
        const facts = factsOf(viewer, moment);
        const attachments = await media.findAttachments(moment.assetId, viewer.id, at);
        const read = await findVisibleMoment(repos, actor, moment.id).then(
          (found) => found.id,
          (error: unknown) =>
            error instanceof NotFoundError ? "404" : error instanceof BlockedError ? "403" : error,
        );
        expect({ facts, onVisibleMoment: attachments.onVisibleMoment, read }).toEqual({
          facts,
          onVisibleMoment: momentVisible(facts),
          read: !momentVisibleIfUnblocked(facts) ? "404" : facts.blockedEitherWay ? "403" : moment.id,
        });
      }
    }
  });

  /** The feed's conditions as moment-queries.ts wrote them out before the functions. */
  const writtenOut = (text: string) =>
    text
      .replaceAll("author_present(u.status) AS author_active", "u.status = 'active' AS author_active")
      .replaceAll(
        "moment_visible_if_unblocked(m.author_id = $1::uuid, (m.hidden_at IS NOT NULL OR m.held_at IS NOT NULL), author_present(u.status))",
        "(m.author_id = $1::uuid OR (m.hidden_at IS NULL AND m.held_at IS NULL AND u.status = 'active'))",
      );

  /** EXPLAIN (COSTS OFF) of a statement as a prepared statement, for a plan mode. */
  const plan = async (tx: SqlExecutor, text: string, values: unknown[], mode: string) => {
    await tx.exec(`SET LOCAL plan_cache_mode = ${mode}`);
    await tx.exec(`PREPARE visibility_plan AS ${text}`);
    try {
      const { rows } = await tx.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (COSTS OFF) EXECUTE visibility_plan(${values.map((value) => `'${String(value)}'`).join(", ")})`,
      );

      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await tx.exec("DEALLOCATE visibility_plan");
    }
  };

  it("plans the feed exactly as the written-out conditions did: the functions inlined, the blocks an anti join", async () => {
    const viewer = viewers[1]?.id ?? "";
    const statements = [
      feedStatement(viewer, { before: undefined, limit: 20 }),
      feedStatement(viewer, { before: moments[5]?.id, limit: 20 }),
    ];
    const rollback = new Error("roll back");
    const plans: { name: string; mode: string; plan: string; before: string }[] = [];
    await target.db.sql
      .transaction(async (tx) => {
        // A table this small is cheapest read whole: without that, the plans show the indexes.
        await tx.exec("SET LOCAL enable_seqscan = off");
        for (const statement of statements) {
          const before = writtenOut(statement.text);
          expect(before).not.toBe(statement.text);
          expect(before).not.toMatch(/moment_visible_if_unblocked|author_present/);
          for (const mode of ["force_custom_plan", "force_generic_plan"]) {
            plans.push({
              name: statement.name,
              mode,
              plan: await plan(tx, statement.text, statement.values, mode),
              before: await plan(tx, before, statement.values, mode),
            });
          }
        }
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) {
          throw error;
        }
      });
    expect(plans).toHaveLength(4);
    for (const { name, mode, plan: text, before } of plans) {
      expect({ name, mode, plan: text }).toEqual({ name, mode, plan: before });
      expect(text).not.toMatch(/moment_visible_if_unblocked|author_present/);
      expect(text).toContain("Anti Join");
    }
  });
});
