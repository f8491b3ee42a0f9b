import { adminCollections, adminStatusChanges } from "@agora/contracts/administration";
import type { CollectionFilter } from "@agora/domain/administration/administration.types";
import type { Actor } from "@agora/domain/common/actor";
import { NotFoundError, ValidationError } from "@agora/domain/common/app-error";
import type { Page, PageRequest } from "@agora/domain/common/page";
import type { z } from "zod";
import { issuesOf } from "../../http/errors";

type Collections = typeof adminCollections;
type StatusChanges = typeof adminStatusChanges;

/** Parses `value` with a kind's schema: a refusal is 422 on `target`. */
const parseWith = <S extends z.ZodType>(schema: S, value: unknown, target: string): z.output<S> => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError(issuesOf(parsed.error, target));
  }

  return parsed.data;
};

/**
 * One kind of `GET /admin/{kind}` as the area that owns it serves it: the query's `status` checked
 * against the kind's statuses (422 otherwise), then its use case, whose page is the kind's items.
 */
export type CollectionKind<Item> = {
  list(actor: Actor, filter: CollectionFilter, page: PageRequest): Promise<Page<Item>>;
};

/** One kind of `PATCH /admin/{kind}/{id}/status`: the body checked against the kind's (422), then its use case. */
export type StatusKind<Data> = {
  change(actor: Actor, id: string, body: unknown): Promise<Data>;
};

export type CollectionKinds = {
  readonly [K in keyof Collections]: CollectionKind<z.output<Collections[K]["item"]>>;
};
export type StatusKinds = {
  readonly [K in keyof StatusChanges]: StatusKind<z.output<StatusChanges[K]["data"]>>;
};

/** What an area contributes to the `{kind}` operations (see Area.adminKinds). */
export type AdminKinds = { collections?: Partial<CollectionKinds>; statuses?: Partial<StatusKinds> };

/**
 * Serves one kind of `GET /admin/{kind}` (`adminCollections.<kind>` of the contracts) with `list`,
 * over the kind's typed statuses and items.
 */
export const collectionKind = <S extends z.ZodType<string>, I extends z.ZodType>(
  kind: { readonly status: S; readonly item: I },
  list: (
    actor: Actor,
    filter: CollectionFilter<z.output<S>>,
    page: PageRequest,
  ) => Promise<Page<z.output<I>>>,
): CollectionKind<z.output<I>> => ({
  list: (actor, { q, status }, page) =>
    list(
      actor,
      { q, status: status === undefined ? undefined : parseWith(kind.status, status, "status") },
      page,
    ),
});

/**
 * Serves one kind of `PATCH /admin/{kind}/{id}/status` (`adminStatusChanges.<kind>`) with `change`,
 * over the kind's typed body and answer.
 */
export const statusKind = <B extends z.ZodType<{ status: string }>, D extends z.ZodType>(
  kind: { readonly body: B; readonly data: D },
  change: (actor: Actor, id: string, body: z.output<B>) => Promise<z.output<D>>,
): StatusKind<z.output<D>> => ({
  change: (actor, id, body) => change(actor, id, parseWith(kind.body, body, "json")),
});

/**
 * The kinds every area contributed, one handler per kind the contracts list; refuses to build
 * when a kind has none or two, or a handler names no kind.
 */
export const assembleKinds = (
  contributed: readonly AdminKinds[],
): { collections: CollectionKinds; statuses: StatusKinds } => {
  const merge = <T extends object>(
    expected: object,
    parts: readonly (Partial<T> | undefined)[],
    what: string,
  ): T => {
    const merged: Record<string, unknown> = {};
    for (const part of parts) {
      for (const [name, handler] of Object.entries(part ?? {})) {
        if (!Object.hasOwn(expected, name) || Object.hasOwn(merged, name)) {
          throw new Error(`admin kinds: ${name} of ${what} is unknown or served twice`);
        }
        merged[name] = handler;
      }
    }
    const missing = Object.keys(expected).filter((name) => !Object.hasOwn(merged, name));
    if (missing.length > 0) {
      throw new Error(`admin kinds: no handler for ${what} ${missing.join(", ")}`);
    }

    return merged as T;
  };

  return {
    collections: merge<CollectionKinds>(
      adminCollections,
      contributed.map((kinds) => kinds.collections),
      "adminCollectionList",
    ),
    statuses: merge<StatusKinds>(
      adminStatusChanges,
      contributed.map((kinds) => kinds.statuses),
      "adminStatusUpdate",
    ),
  };
};

/** The member of `kinds` named `kind` (own properties only); 404 for any other name. */
export const kindOf = <K extends object>(kinds: K, kind: string): K[keyof K] => {
  if (!Object.hasOwn(kinds, kind)) {
    throw new NotFoundError(`Resource kind ${kind}`);
  }

  return kinds[kind as keyof K];
};
