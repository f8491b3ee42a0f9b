import type { Actor } from "../common/actor";
import { NotFoundError, RateLimitedError } from "../common/app-error";
import { type DataExport, secondsUntilNextExport } from "./data-export";
import { exportRequested } from "./events/export-requested";
import type { IdentityDeps } from "./identity.deps";

/**
 * Queues a copy of the caller's data (docs/accounts.md, "Your data"): a pending export, built by
 * the outbox worker (identity.export_requested). At most one request a day: within 24 hours of the
 * newest request the answer is 429 `rate_limited` with the seconds left. The caller's account row
 * is locked first, so two requests at once serialize and the second sees the first's row: one
 * export, whatever the concurrency.
 */
export const requestDataExport = async (
  { uow, clock, ids }: Pick<IdentityDeps, "uow" | "clock" | "ids">,
  actor: Actor,
): Promise<DataExport> => {
  const now = clock.now();

  return uow.run(async (tx) => {
    const user = await tx.users.findByIdForUpdate(actor.userId);
    if (!user) {
      throw new NotFoundError("Account");
    }
    const latest = await tx.dataExports.findLatest(actor.userId);
    const wait = latest ? secondsUntilNextExport(latest.requestedAt, now) : 0;
    if (wait > 0) {
      throw new RateLimitedError(wait, "One data export a day; try again later.");
    }
    const exported: DataExport = {
      id: ids.next(),
      userId: actor.userId,
      status: "pending",
      requestedAt: now,
      readyAt: null,
      expiresAt: null,
      objectKey: null,
      sizeBytes: null,
    };
    await tx.dataExports.create(exported);
    await tx.outbox.append(
      exportRequested.event(exported.id, { export_id: exported.id, user_id: actor.userId }),
      now,
    );

    return exported;
  });
};
