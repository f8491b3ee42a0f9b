import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

/** Methods whose matches are remembered: a client's made-up method never grows the memory. */
const remembered = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Hono's TrieRouter (the route table has parameters beside static segments at one level, e.g.
 * `/api/v1/admin/:kind` beside `/api/v1/admin/orders/...`, which RegExpRouter refuses), with the
 * match of each registered static path (`/health`, `/api/v1`, `/api/v1/auth/me`…) remembered per
 * method: the route table is fixed once the app is built, so such a match never changes, and
 * the trie is walked only for paths with parameters. The set is bounded by the table's static paths
 * times seven methods. Adding a route forgets what was remembered.
 */
export class StaticPathRouter<T> implements Router<T> {
  name = "StaticPathRouter";
  readonly #trie = new TrieRouter<T>();
  readonly #staticPaths = new Set<string>();
  readonly #matches = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    if (!path.includes(":") && !path.includes("*") && !path.includes("?")) {
      this.#staticPaths.add(path);
    }
    this.#matches.clear();
  }

  match(method: string, path: string): Result<T> {
    if (!this.#staticPaths.has(path) || !remembered.has(method)) {
      return this.#trie.match(method, path);
    }
    const key = `${method} ${path}`;
    let found = this.#matches.get(key);
    if (found === undefined) {
      found = this.#trie.match(method, path);
      this.#matches.set(key, found);
    }

    return found;
  }
}
