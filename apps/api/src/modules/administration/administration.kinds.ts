import type { CollectionFilter } from "@agora/domain/administration/administration.types";
import type { Actor } from "@agora/domain/shared/actor";
import type { Page, PageRequest } from "@agora/domain/shared/page";
import type { z } from "zod";

/**
 * One `{kind}` of `PATCH /admin/{kind}/{id}/status`, contributed by the area that owns it (from
 * its `<area>.admin.routes.ts`): the statuses it accepts, its response, and its use case.
 */
export interface StatusKind<S extends string = string> {
  readonly request: z.ZodType<{ status: S }>;
  readonly response: z.ZodType;
  change(actor: Actor, id: string, body: { status: S }): Promise<unknown>;
}

/**
 * One `{kind}` of `GET /admin/{kind}`, contributed by the area that owns it: its statuses, what
 * `q` searches (documented), its item schema, and its use case, which presents the page.
 */
export interface CollectionKind<S extends string = string> {
  readonly status: z.ZodType<S>;
  /** What `q` matches, for the documentation. */
  readonly searches: string;
  readonly item: z.ZodType;
  /** Who may list it, for the documentation (the use case enforces it). */
  readonly readers?: string;
  list(actor: Actor, filter: CollectionFilter<S>, page: PageRequest): Promise<Page<unknown>>;
}
