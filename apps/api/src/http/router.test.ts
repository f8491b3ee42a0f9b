import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { StaticPathRouter } from "./router";

describe("StaticPathRouter", () => {
  const app = new Hono({ router: new StaticPathRouter() });
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("x-seen", "1");
  });
  app.get("/admin/overview", (c) => c.text("overview"));
  app.get("/admin/:kind", (c) => c.text(`kind ${c.req.param("kind")}`));
  app.get("/admin/orders/:id", (c) => c.text(`order ${c.req.param("id")}`));
  app.post("/admin/overview", (c) => c.text("posted"));

  it("answers a static path as the trie does, the second time from memory too, middleware included", async () => {
    for (let i = 0; i < 2; i += 1) {
      const overview = await app.request("/admin/overview");
      expect(await overview.text()).toBe("overview");
      expect(overview.headers.get("x-seen")).toBe("1");
      expect(await (await app.request("/admin/overview", { method: "POST" })).text()).toBe("posted");
      expect(await (await app.request("/admin/reports")).text()).toBe("kind reports");
      expect(await (await app.request("/admin/orders/7")).text()).toBe("order 7");
      expect((await app.request("/admin/overview", { method: "DELETE" })).status).toBe(404);
    }
  });

  it("forgets what it remembered when a route is added", async () => {
    expect((await app.request("/admin/late")).status).toBe(200);
    app.get("/late", (c) => c.text("late"));
    expect(await (await app.request("/late")).text()).toBe("late");
  });
});
