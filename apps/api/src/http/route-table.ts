import type { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";

type Route = { method: string; path: string };

/**
 * The app's routes as a lookup, built on first use (after every route is mounted): the template a
 * request matched (metrics and access-log label) and the methods a path answers to (405 Allow).
 * Middleware registrations (method ALL, or a wildcard path) are not routes.
 */
export const createRouteTable = (app: Pick<Hono, "routes">) => {
  let router: TrieRouter<Route> | undefined;
  const routes = () => {
    if (!router) {
      router = new TrieRouter<Route>();
      for (const route of app.routes) {
        if (route.method !== "ALL" && !route.path.includes("*")) {
          router.add("ANY", route.path, { method: route.method, path: route.path });
        }
      }
    }

    return router;
  };
  const matching = (path: string) =>
    routes()
      .match("ANY", path)[0]
      .map(([route]) => route);

  return {
    /** The route template `method path` matched, or "unmatched". */
    template: (method: string, path: string): string =>
      matching(path).find((route) => route.method === method)?.path ?? "unmatched",
    /** The methods `path` answers to; empty for an unknown path. */
    allowedMethods: (path: string): string[] => [...new Set(matching(path).map((route) => route.method))],
  };
};
