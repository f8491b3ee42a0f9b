import type { IdGenerator } from "@agora/domain/common/ids";
import type { OutboxStore, OutboxWriter } from "@agora/domain/outbox/outbox.ports";
import type { OutboxEvent } from "@agora/domain/outbox/outbox.types";
import type { OutboxEvent as OutboxEventModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { Sql, SqlExecutor } from "../../sql";

type OutboxRow = Pick<
  RowOf<OutboxEventModel>,
  "id" | "kind" | "aggregate_type" | "aggregate_id" | "payload" | "attempts" | "created_at"
>;

const toEvent = (row: OutboxRow): OutboxEvent => ({
  id: row.id,
  kind: row.kind,
  aggregateType: row.aggregate_type,
  aggregateId: row.aggregate_id,
  payload: (row.payload ?? {}) as Record<string, unknown>,
  attempts: row.attempts,
  createdAt: row.created_at,
});

// Served by the partial index outbox_events_pending_idx (available_at, id) WHERE pending.
const pending = "processed_at IS NULL AND dead_at IS NULL";

/** The use cases' side: appends inside their unit of work's transaction. */
export const createOutboxWriter = (db: SqlExecutor, ids: IdGenerator): OutboxWriter => ({
  async append(event, at) {
    const id = ids.next();
    await db.query(
      `INSERT INTO outbox_events (id, kind, aggregate_type, aggregate_id, payload, attempts, available_at, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, 0, $6, $6)`,
      [id, event.kind, event.aggregateType, event.aggregateId, JSON.stringify(event.payload), at],
      "outbox_events_append",
    );

    return id;
  },
});

/**
 * The worker's side of the outbox, on the pool: every method is one autocommitted statement, so a
 * claim's lease is visible to other workers at once and no transaction spans a delivery.
 */
export const createOutboxStore = (sql: SqlExecutor): OutboxStore => ({
  async claim(now, leaseUntil, limit, processed, kinds) {
    // One statement: lock due rows (skipping those another worker is locking), move them past
    // the lease end, return them. Another worker's claim sees them as not yet due. With
    // `processed`, the same statement first marks the previous batch (a data-modifying WITH runs
    // to completion whether or not it is read) and keeps those rows out of the claim. `kinds`
    // ($k: the names, $k+1: true for only those, false for all but those; NULL names: every kind)
    // filters the rows the pending index finds, which are few unless a backlog builds.
    const names = kinds ? ("only" in kinds ? kinds.only : kinds.except) : null;
    const only = kinds ? "only" in kinds : true;
    const byKind = (k: number) =>
      `($${k}::text[] IS NULL OR (kind = ANY($${k}::text[])) = $${k + 1}::boolean)`;
    const { rows } = processed
      ? await sql.query<OutboxRow>(
          `WITH processed AS (
             UPDATE outbox_events SET processed_at = $4 WHERE id = ANY($5::uuid[]) AND ${pending}
           )
           UPDATE outbox_events SET available_at = $2
            WHERE id IN (SELECT id FROM outbox_events
                          WHERE ${pending} AND available_at <= $1 AND id <> ALL($5::uuid[]) AND ${byKind(6)}
                          ORDER BY available_at, id
                          LIMIT $3
                          FOR UPDATE SKIP LOCKED)
           RETURNING id, kind, aggregate_type, aggregate_id, payload, attempts, created_at`,
          [now, leaseUntil, limit, processed.at, processed.ids, names, only],
          "outbox_events_processed_claim",
        )
      : await sql.query<OutboxRow>(
          `UPDATE outbox_events SET available_at = $2
            WHERE id IN (SELECT id FROM outbox_events
                          WHERE ${pending} AND available_at <= $1 AND ${byKind(4)}
                          ORDER BY available_at, id
                          LIMIT $3
                          FOR UPDATE SKIP LOCKED)
           RETURNING id, kind, aggregate_type, aggregate_id, payload, attempts, created_at`,
          [now, leaseUntil, limit, names, only],
          "outbox_events_claim",
        );

    return rows.map(toEvent).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  },

  async markProcessed(ids, at) {
    if (ids.length === 0) {
      return 0;
    }
    const { rowCount } = await sql.query(
      `UPDATE outbox_events SET processed_at = $2 WHERE id = ANY($1::uuid[]) AND ${pending}`,
      [ids, at],
      "outbox_events_processed",
    );

    return rowCount;
  },

  async recordFailure(id, failure) {
    const { rowCount } = await sql.query(
      `UPDATE outbox_events SET attempts = $3, last_error = $4, available_at = $5
        WHERE id = $1 AND attempts = $2 AND ${pending}`,
      [id, failure.previousAttempts, failure.attempts, failure.error, failure.retryAt],
      "outbox_events_failed",
    );

    return rowCount === 1;
  },

  async markDead(id, failure) {
    const { rowCount } = await sql.query(
      `UPDATE outbox_events SET attempts = $3, last_error = $4, dead_at = $5
        WHERE id = $1 AND attempts = $2 AND ${pending}`,
      [id, failure.previousAttempts, failure.attempts, failure.error, failure.at],
      "outbox_events_dead",
    );

    return rowCount === 1;
  },

  async redrive(at, eventId) {
    const { rowCount } = await sql.query(
      `UPDATE outbox_events SET dead_at = NULL, attempts = 0, available_at = $1
        WHERE dead_at IS NOT NULL AND processed_at IS NULL AND ($2::boolean OR id = $3::uuid)`,
      [at, eventId === undefined, idParam(eventId)],
    );

    return rowCount;
  },
});

/**
 * What /metrics reads from the database at each scrape: the outbox, and the age of the oldest
 * undecided report (the moderators' 24-hour promise; docs/safety.md, "Reports").
 */
export type OutboxFigures = {
  pending: number;
  oldestPendingAgeSeconds: number;
  dead: number;
  oldestUndecidedReportAgeSeconds: number;
};

/**
 * The outbox's backlog, the age of its oldest pending event and its dead letters, in one statement
 * under its own `timeoutMs` (a scrape must stay cheap whatever the database is doing). Served by
 * partial indexes: pending rows (`outbox_events_pending_created_at_idx`: the count, and the oldest
 * as the index's first entry) and dead letters (`outbox_events_dead_idx`); delivered history is
 * never read. The oldest undecided report is the first entry of `reports_undecided_created_at_idx`.
 */
export const readOutboxFigures = async (sql: Sql, timeoutMs: number): Promise<OutboxFigures> => {
  const { rows } = await sql.queryBounded<{ pending: number; oldest: number; dead: number; report: number }>(
    `SELECT (SELECT count(*) FROM outbox_events WHERE ${pending})::float8 AS pending,
            COALESCE((SELECT extract(epoch FROM now() - min(created_at)) FROM outbox_events WHERE ${pending}), 0)::float8 AS oldest,
            (SELECT count(*) FROM outbox_events WHERE dead_at IS NOT NULL)::float8 AS dead,
            COALESCE((SELECT extract(epoch FROM now() - min(created_at)) FROM reports
                       WHERE status IN ('open', 'reviewing')), 0)::float8 AS report`,
    timeoutMs,
  );
  const row = rows[0];

  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
    dead: Number(row?.dead ?? 0),
    oldestUndecidedReportAgeSeconds: Math.max(0, Number(row?.report ?? 0)),
  };
};
