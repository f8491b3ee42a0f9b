import type { Operation } from "@agora/contracts/operation";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import {
  type Descriptions,
  type Handled,
  type MountOptions,
  mountOperations,
  type WriteLimitOptions,
} from "../http/operations";
import {
  type AdminKinds,
  assembleKinds,
  type CollectionKinds,
  type StatusKinds,
} from "./administration/administration.kinds";

type Kinds = { collections: CollectionKinds; statuses: StatusKinds };

/**
 * What an area contributes to the HTTP API, in one registration (`<area>.area.ts`): the handlers of
 * its operations (member and admin), the admin kinds it serves, and their long OpenAPI
 * descriptions. `D` is what its handlers need from the composition root.
 */
export type Area<D> = {
  /** The handlers; `kinds` are every area's admin kinds, for the `{kind}` operations. */
  readonly routes: (deps: D, kinds: Kinds) => readonly Handled[];
  /** The kinds of `GET /admin/{kind}` and `PATCH /admin/{kind}/{id}/status` it serves. */
  readonly adminKinds?: (deps: D) => AdminKinds;
  readonly descriptions?: Descriptions;
  /** Operations whose document entries list `security` right after `tags` (see MountOptions). */
  readonly securityAfterTags?: { readonly [operationId: string]: Operation };
};

/**
 * Mounts the areas' handlers on `app`, in the order of the contracts' `table`: every operation of it
 * must have exactly one handler, and every admin kind exactly one area serving it.
 */
export const mountAreas = <
  D extends { identity: MountOptions["identity"]; idempotency: MountOptions["idempotency"] },
>(
  app: OpenAPIHono<AppEnv>,
  table: readonly Operation[],
  areas: readonly Area<NoInfer<D>>[],
  deps: D,
  writeLimits?: WriteLimitOptions,
): void => {
  const kinds = assembleKinds(areas.map((area) => area.adminKinds?.(deps) ?? {}));
  const handled = areas.flatMap((area) => area.routes(deps, kinds));
  const securityAfterTags = new Set(areas.flatMap((area) => Object.keys(area.securityAfterTags ?? {})));
  const descriptions: Descriptions = Object.assign({}, ...areas.map((area) => area.descriptions ?? {}));
  mountOperations(app, table, handled, {
    identity: deps.identity,
    idempotency: deps.idempotency,
    descriptions,
    securityAfterTags,
    ...(writeLimits ? { writeLimits } : {}),
  });
};
