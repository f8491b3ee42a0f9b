// The content filters' cost on a write (docs/safety.md, "Filters"): creating a moment with no
// filter rule, then with 1,000 rules on moments (a third each word, phrase and domain; none of
// them hits the body). A check looks up Sets, so the two rows should be within 10% of each other.
import { v7 } from "uuid";
import { chatWorld } from "./chat.ts";
import { withClient } from "./data.ts";
import type { BenchContext, RequestSpec, Scenario } from "./scenario.types.ts";

const RULES = 1000;

const body = JSON.stringify({
  body: "A quiet morning at the market: fresh bread, strong coffee and a walk by the river with friends.",
});

/** One author (a live session) posting; moments pile up in its own rows only. */
const author = async (context: BenchContext): Promise<Partial<RequestSpec>> => {
  const world = await chatWorld(context, 1);

  return { headers: { "content-type": "application/json", authorization: `Bearer ${world.sender.token}` } };
};

/** 1,000 rules on moments, written straight to the database (the API's caches see them within a second). */
const addRules = (databaseUrl: string) =>
  withClient(databaseUrl, async (client) => {
    const rows = Array.from({ length: RULES }, (_, index) => {
      const kind = index % 3;
      const [match, value] =
        kind === 0
          ? ["word", `benchword${index}`]
          : kind === 1
            ? ["phrase", `bench phrase number ${index}`]
            : ["domain", `bench${index}.example`];

      return { id: v7(), match, value };
    });
    await client.query(
      `INSERT INTO content_filters (id, match, value, normalized_value, action, contexts, created_at, updated_at)
       SELECT id, match, value, value, 'block', ARRAY['moments'], now(), now()
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(id, match, value)`,
      [rows.map((row) => row.id), rows.map((row) => row.match), rows.map((row) => row.value)],
    );
    // Past the caches' one-second refresh, so the first measured request already has them.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });

const removeRules = (databaseUrl: string) =>
  withClient(databaseUrl, async (client) => {
    const removed = await client.query("DELETE FROM content_filters WHERE value LIKE 'bench%'");

    return `content filter rules removed after the row: ${removed.rowCount}`;
  });

export const filterScenarios: Scenario[] = [
  {
    name: "POST /community/moments",
    request: { path: "/api/v1/community/moments", method: "POST", body },
    reference: false,
    connections: [50],
    prepare: author,
  },
  {
    name: "POST /community/moments, 1,000 filter rules",
    request: { path: "/api/v1/community/moments", method: "POST", body },
    reference: false,
    connections: [50],
    prepare: async (context) => {
      const spec = await author(context);
      await addRules(context.databaseUrl);

      return spec;
    },
    report: (context) => removeRules(context.databaseUrl),
  },
];
