// The adapter's refusals: an app whose handlers and the contracts' table disagree does not start.
import { defineOperations } from "@agora/contracts/operation";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assembleKinds } from "../modules/administration/administration.kinds";
import type { IdempotencyDeps } from "./idempotency";
import type { AuthDeps } from "./middleware/auth";
import { createRouter } from "./openapi";
import { type Handled, handle, mountOperations } from "./operations";
import { ok } from "./respond";

const { thingGet, thingList } = defineOperations({
  thingGet: {
    method: "GET",
    path: "/things/{id}",
    auth: "bearer",
    tags: ["Things"],
    summary: "A thing",
    params: z.object({ id: z.string() }),
    responses: { 200: { description: "The thing.", data: z.object({ id: z.string() }) } },
    errors: ["unauthorized", "not_found"],
  },
  thingList: {
    method: "GET",
    path: "/things",
    auth: "public",
    tags: ["Things"],
    summary: "Things",
    responses: { 200: { description: "Every thing.", data: z.array(z.string()) } },
  },
});

const getThing = handle(thingGet, (c) => ok(c, { id: c.req.valid("param").id }));
const listThings = handle(thingList, (c) => ok(c, ["a"]));
// The token checks are never reached: these apps only register routes.
const identity = {} as AuthDeps;
const idempotency = {} as IdempotencyDeps;

const mount = (handled: readonly Handled[], descriptions: Record<string, string> = {}) =>
  mountOperations(createRouter(), [thingGet, thingList], handled, { identity, idempotency, descriptions });

describe("mountOperations", () => {
  it("registers every operation of the table with its handler, in the table's order", () => {
    const app = createRouter();
    mountOperations(app, [thingGet, thingList], [listThings, getThing], {
      identity,
      idempotency,
      descriptions: { thingGet: "Found by id." },
    });

    expect([...new Set(app.routes.map((route) => `${route.method} ${route.path}`))]).toEqual([
      "GET /things/:id",
      "GET /things",
    ]);
    const routes = app.openAPIRegistry.definitions.flatMap((definition) =>
      definition.type === "route" ? [definition.route] : [],
    );
    expect(routes.map((route) => [route.operationId, route.description, route.security])).toEqual([
      ["thingGet", "Found by id.", [{ bearerAuth: [] }]],
      ["thingList", undefined, []],
    ]);
  });

  it("refuses an operation of the table without a handler", () => {
    expect(() => mount([getThing])).toThrow("no handler for thingList (GET /things)");
  });

  it("refuses two handlers for one operation", () => {
    expect(() => mount([getThing, listThings, getThing])).toThrow("thingGet has two handlers");
  });

  it("refuses a handler of an operation the table does not hold", () => {
    const { stray } = defineOperations({
      stray: {
        method: "GET",
        path: "/stray",
        auth: "public",
        tags: [],
        summary: "Stray",
        responses: { 200: { description: "Nothing.", data: z.array(z.string()) } },
      },
    });

    expect(() => mount([getThing, listThings, handle(stray, (c) => ok(c, []))])).toThrow(
      "stray is not an operation of the contracts' table",
    );
  });

  it("refuses a description of no operation", () => {
    expect(() => mount([getThing, listThings], { thingGone: "…" })).toThrow(
      "descriptions of no operation: thingGone",
    );
  });

  it("refuses roles on a public operation", () => {
    expect(() => mount([getThing, handle(thingList, (c) => ok(c, []), { roles: ["admin"] })])).toThrow(
      "thingList is public and cannot require roles",
    );
  });
});

describe("assembleKinds", () => {
  const list = { list: async () => ({ items: [], total: 0 }) };
  const change = { change: async () => ({}) as never };
  const allCollections = {
    users: list,
    accountants: list,
    services: list,
    providers: list,
    listings: list,
    orders: list,
    payments: list,
  };

  it("takes one handler per kind of the contracts, from any area", () => {
    const { users, ...others } = allCollections;
    const kinds = assembleKinds([
      { collections: { users }, statuses: { users: change } },
      { collections: others, statuses: { listings: change } },
    ]);

    expect(Object.keys(kinds.collections)).toHaveLength(7);
    expect(Object.keys(kinds.statuses)).toEqual(["users", "listings"]);
  });

  it("refuses a kind no area serves", () => {
    expect(() => assembleKinds([{ collections: allCollections, statuses: { users: change } }])).toThrow(
      "no handler for adminStatusUpdate listings",
    );
  });

  it("refuses a kind served twice, or one the contracts do not have", () => {
    const statuses = { statuses: { users: change, listings: change } };

    expect(() =>
      assembleKinds([{ collections: allCollections, ...statuses }, { collections: { users: list } }]),
    ).toThrow("users of adminCollectionList is unknown or served twice");
    expect(() =>
      assembleKinds([{ collections: { ...allCollections, gadgets: list } as never, ...statuses }]),
    ).toThrow("gadgets of adminCollectionList is unknown or served twice");
  });
});
