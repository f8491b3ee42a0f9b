// The check the client e2e suite runs under (client.e2e.int.test.ts): Stoplight Prism's validating
// proxy in front of the server, with the document the server serves. This proves the check can
// fail: a server with one field of one response changed is caught, while a request sent invalid on
// purpose is not a failure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test/harness";
import { type PrismProxy, startPrism } from "../test/prism";
import type { RequestHandler } from "./http/handler";
import { drain, listen } from "./server";

const PLANTED = "/api/v1/catalog/categories";

/** The app, except that the first category's name in GET /catalog/categories becomes a number. */
const plantOneChange =
  (handler: RequestHandler): RequestHandler =>
  async (request, bindings) => {
    const response = await handler(request, bindings);
    if (new URL(request.url).pathname !== PLANTED || response.status !== 200) {
      return response;
    }
    const body = (await response.json()) as { data: Array<Record<string, unknown>> };
    const first = body.data[0];
    if (first) {
      first.name = 42;
    }
    const headers = new Headers(response.headers);
    headers.delete("content-length");

    return new Response(JSON.stringify(body), { status: response.status, headers });
  };

describe("Prism's validating proxy in front of the server", () => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof listen>>;
  let prism: PrismProxy;
  let through: typeof fetch;

  beforeAll(async () => {
    h = await createHarness();
    server = await listen(plantOneChange(h.handler), { host: "127.0.0.1", port: 0 });
    const address = server.address();
    const upstream = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    prism = await startPrism(upstream);
    through = prism.fetchThrough(fetch);
  });
  afterAll(async () => {
    await prism?.close();
    if (server) {
      await drain(server, 1_000);
    }
    await h?.close();
  });

  const upstreamUrl = (path: string) => {
    const address = server.address();

    return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}${path}`;
  };

  it("passes answers the document allows; a request sent invalid on purpose is a request violation, not a failure", async () => {
    const services = await through(upstreamUrl("/api/v1/catalog/services"));
    expect(services.status).toBe(200);
    const invalid = await through(upstreamUrl("/api/v1/auth/register"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "x", email: "not-an-email" }),
    });
    expect(invalid.status).toBe(422);

    const [servicesChecked, invalidChecked] = prism.checked();
    expect(servicesChecked).toMatchObject({ method: "GET", status: 200, violations: [] });
    expect(invalidChecked?.violations.length).toBeGreaterThan(0);
    expect(invalidChecked?.violations.every((violation) => violation.location[0] === "request")).toBe(true);
    expect(prism.failures()).toEqual([]);
    expect(() => prism.assertNoFailures()).not.toThrow();
  });

  it("fails on a planted response change: one field of one response", async () => {
    const response = await through(upstreamUrl(PLANTED));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: Array<{ name: unknown }> }).data[0]?.name).toBe(42);

    expect(prism.failures()).toContainEqual(
      expect.stringMatching(/^GET \/api\/v1\/catalog\/categories → 200: response\.body\.data\.0\.name: /),
    );
    expect(() => prism.assertNoFailures()).toThrow(/does not allow these answers/);
  });

  it("fails on a request no operation of the document matches (its answer could not be checked)", async () => {
    const response = await through(upstreamUrl("/api/v1/not-a-route"));
    expect(response.status).toBe(404);

    expect(prism.failures()).toContainEqual(
      expect.stringMatching(/^GET \/api\/v1\/not-a-route → 404: request: Selected route not found/),
    );
  });
});
