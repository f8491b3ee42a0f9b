import type { Operation } from "@agora/contracts/operation";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { type Descriptions, type Handled, type MountOptions, mountOperations } from "../http/operations";

/**
 * What an area contributes to the HTTP API, in one registration (`<area>.area.ts`): the handlers of
 * its operations (member and admin), and their long OpenAPI descriptions. `D` is what its handlers
 * need from the composition root.
 */
export type Area<D> = {
  readonly routes: (deps: D) => readonly Handled[];
  readonly descriptions?: Descriptions;
  /** Operations whose document entries list `security` right after `tags` (see MountOptions). */
  readonly securityAfterTags?: { readonly [operationId: string]: Operation };
};

/** Mounts the areas' handlers on `app`, in the order of the contracts' `table`. */
export const mountAreas = <D extends { identity: MountOptions["identity"] }>(
  app: OpenAPIHono<AppEnv>,
  table: readonly Operation[],
  areas: readonly Area<NoInfer<D>>[],
  deps: D,
): void => {
  const handled = areas.flatMap((area) => area.routes(deps));
  const securityAfterTags = new Set(areas.flatMap((area) => Object.keys(area.securityAfterTags ?? {})));
  const descriptions: Descriptions = Object.assign({}, ...areas.map((area) => area.descriptions ?? {}));
  mountOperations(app, table, handled, { identity: deps.identity, descriptions, securityAfterTags });
};
