// The served OpenAPI document as a contract: equal to the committed snapshot (a change to the API shows
// up in review as a snapshot diff), the API's pairs (the specification's 88, and the routes added to them)
// exactly, an operationId SDKs can use on each, every
// error status with the codes it can carry, and an example for every request body.
// Update the snapshot after an intended change: UPDATE_OPENAPI_SNAPSHOT=1 pnpm --filter @agora/api test openapi
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { errorCodes } from "@agora/contracts/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../test/harness";
import { addedRoutes, SPEC_ROUTE_COUNT, specRoutes } from "../../test/spec-routes";
import { OPENAPI_PATH } from "../app";
import { statusByCode } from "./errors";
import { ERROR_ENVELOPE_REF } from "./openapi";

const SNAPSHOT = new URL("../../openapi.snapshot.json", import.meta.url);

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  example?: unknown;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  enum?: unknown[];
};
type Response = { description: string; content?: Record<string, { schema: Schema }> };
type Operation = {
  operationId?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, Response>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

describe("the OpenAPI document", () => {
  let h: Harness;
  let doc: Document;

  beforeAll(async () => {
    h = await createHarness({ seed: false });
    doc = (await h.get<Document>(OPENAPI_PATH)).body;
  });
  afterAll(async () => {
    await h?.close();
  });

  it("is the committed snapshot (UPDATE_OPENAPI_SNAPSHOT=1 pnpm --filter @agora/api test openapi)", () => {
    const served = `${JSON.stringify(doc, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI_SNAPSHOT === "1") {
      writeFileSync(SNAPSHOT, served);
    }
    expect(existsSync(SNAPSHOT), "apps/api/openapi.snapshot.json is missing").toBe(true);
    // Compared as text: key order is part of what a reviewer reads in the diff.
    expect(
      readFileSync(SNAPSHOT, "utf8") === served,
      "the served document differs from apps/api/openapi.snapshot.json: review the change, then run " +
        "UPDATE_OPENAPI_SNAPSHOT=1 pnpm --filter @agora/api test openapi and commit the snapshot",
    ).toBe(true);
  });

  it("documents the API's method + path pairs (the specification's 88, and the routes added to them), exactly", () => {
    const documented = operations(doc).map(({ key }) => key);
    expect(specRoutes).toEqual(expect.arrayContaining([...addedRoutes]));
    expect(specRoutes.filter((route) => !addedRoutes.includes(route))).toHaveLength(SPEC_ROUTE_COUNT);
    expect([...documented].sort()).toEqual([...specRoutes].sort());
  });

  it("gives each operation a unique camelCase operationId and states its security", () => {
    const ids = operations(doc).map(({ key, operation }) => {
      expect(operation.operationId, key).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(operation.security, `${key} states its security ([] when public)`).toBeDefined();

      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("documents each error status with the envelope and the codes it can carry", () => {
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
    const documentedCodes = new Set<string>();
    for (const { key, operation } of operations(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) {
          continue;
        }
        const schema = response.content?.["application/json"]?.schema;
        expect(schema?.allOf?.[0]?.$ref, `${key} ${status}`).toBe(ERROR_ENVELOPE_REF);
        const codes = (schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? []) as string[];
        expect(codes.length, `${key} ${status} lists its codes`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(errorCodes, `${key} ${status}`).toContain(code);
          const expected =
            code === "invalid_code" ? [401, 422] : [statusByCode[code as keyof typeof statusByCode]];
          expect(expected, `${key}: ${code} under ${status}`).toContain(Number(status));
          expect(response.description, `${key} ${status} names ${code}`).toContain(`\`${code}\``);
          documentedCodes.add(code);
        }
      }
    }
    // Every code a route can answer appears somewhere; the app-wide ones (405, 500) are in info.description.
    const appWide = ["method_not_allowed", "internal_error"];
    expect(errorCodes.filter((code) => !documentedCodes.has(code) && !appWide.includes(code))).toEqual([]);
  });

  it("shows an example for every request body", () => {
    const resolve = (schema: Schema): Schema =>
      schema.$ref ? (doc.components.schemas[schema.$ref.split("/").pop() ?? ""] ?? schema) : schema;
    const hasExample = (schema: Schema): boolean => {
      const resolved = resolve(schema);
      if (resolved.example !== undefined || (resolved.examples?.length ?? 0) > 0) {
        return true;
      }

      return (resolved.anyOf ?? []).length > 0 && (resolved.anyOf ?? []).every(hasExample);
    };
    const bodies = operations(doc).filter(({ operation }) => operation.requestBody);
    expect(bodies.length).toBeGreaterThan(30);
    for (const { key, operation } of bodies) {
      const media = operation.requestBody?.content["application/json"];
      expect(media, key).toBeDefined();
      expect(media?.example !== undefined || (media !== undefined && hasExample(media.schema)), key).toBe(
        true,
      );
    }
  });
});
