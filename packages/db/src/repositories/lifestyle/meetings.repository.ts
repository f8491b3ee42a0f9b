import type { MeetingRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { Meeting, MeetingStatus } from "@agora/domain/lifestyle/lifestyle.types";
import type { Meeting as MeetingModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type MeetingRow = Omit<RowOf<MeetingModel>, "updated_at">;

const columns = "id, host_id, title, starts_at, status, ended_at, created_at";

const toMeeting = (row: MeetingRow): Meeting => ({
  id: row.id,
  hostId: row.host_id,
  title: row.title,
  startsAt: row.starts_at,
  status: row.status as MeetingStatus,
  endedAt: row.ended_at,
  createdAt: row.created_at,
});

/** Raw SQL: the join, leave and end statements carry the locking that keeps them consistent. */
export const createMeetingRepository = (db: SqlExecutor): MeetingRepository => ({
  async create(meeting) {
    await db.query(
      `INSERT INTO meetings (id, host_id, title, starts_at, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [meeting.id, meeting.hostId, meeting.title, meeting.startsAt, meeting.status, meeting.createdAt],
    );
  },

  async findById(id) {
    const { rows } = await db.query<MeetingRow>(`SELECT ${columns} FROM meetings WHERE id = $1`, [
      idParam(id),
    ]);

    return rows[0] ? toMeeting(rows[0]) : null;
  },

  async findByIdForJoin(id) {
    const { rows } = await db.query<MeetingRow>(`SELECT ${columns} FROM meetings WHERE id = $1 FOR SHARE`, [
      idParam(id),
    ]);

    return rows[0] ? toMeeting(rows[0]) : null;
  },

  async listOpen(limit) {
    const { rows } = await db.query<MeetingRow>(
      `SELECT ${columns} FROM meetings WHERE status <> 'ended' ORDER BY starts_at, id LIMIT $1`,
      [limit],
      "meetings_open",
    );

    return rows.map(toMeeting);
  },

  async activate(id, at) {
    const { rowCount } = await db.query(
      "UPDATE meetings SET status = 'active', updated_at = $2 WHERE id = $1 AND status = 'scheduled'",
      [id, at],
    );

    return rowCount === 1;
  },

  async end(id, at) {
    const key = idParam(id);
    const { rows } = await db.query<MeetingRow>(
      `UPDATE meetings SET status = 'ended', ended_at = $2, updated_at = $2
        WHERE id = $1 AND status <> 'ended' RETURNING ${columns}`,
      [key, at],
    );
    if (!rows[0]) {
      return this.findById(id);
    }
    await db.query("UPDATE meeting_participants SET left_at = $2 WHERE meeting_id = $1 AND left_at IS NULL", [
      key,
      at,
    ]);

    return toMeeting(rows[0]);
  },

  async join(participation) {
    // The partial unique index keeps one active participation: a second join finds the first.
    const added = await db.query<{ joined_at: Date }>(
      `INSERT INTO meeting_participants (id, meeting_id, user_id, joined_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (meeting_id, user_id) WHERE left_at IS NULL DO NOTHING RETURNING joined_at`,
      [participation.id, participation.meetingId, participation.userId, participation.at],
    );
    // A separate statement: a concurrent join that won the insert has committed, and a new
    // statement's snapshot sees it.
    const { rows } = added.rows[0]
      ? added
      : await db.query<{ joined_at: Date }>(
          `SELECT joined_at FROM meeting_participants
            WHERE meeting_id = $1 AND user_id = $2 AND left_at IS NULL`,
          [participation.meetingId, participation.userId],
        );
    const row = rows[0];
    if (!row) {
      throw new Error("meeting participation vanished while joining");
    }

    return row.joined_at;
  },

  async leave(meetingId, userId, at) {
    const { rowCount } = await db.query(
      "UPDATE meeting_participants SET left_at = $3 WHERE meeting_id = $1 AND user_id = $2 AND left_at IS NULL",
      [idParam(meetingId), userId, at],
    );

    return rowCount > 0;
  },
});
