import type { Actor } from "@agora/domain/shared/actor";
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
