import type { UserStatus } from "@agora/domain/identity/identity.types";
import type { MeetingRepository } from "@agora/domain/lifestyle/lifestyle.ports";
import type { Meeting, MeetingStatus, MeetingVisibility } from "@agora/domain/lifestyle/lifestyle.types";
import type { Meeting as MeetingModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { notBlockedSql } from "../community/user-blocks.repository";

type MeetingRow = Omit<RowOf<MeetingModel>, "updated_at"> & { invitee_ids: string[] };

/** The columns of `meetings m`, with its invitees in id order. */
const columns = `m.id, m.host_id, m.title, m.starts_at, m.status, m.visibility, m.ended_at, m.created_at,
  ARRAY(SELECT i.user_id::text FROM meeting_invitees i WHERE i.meeting_id = m.id ORDER BY i.user_id)
    AS invitee_ids`;

/**
 * The SQL form of `canSeeMeeting` (the domain's lifestyle policy): true when the viewer may know
 * the meeting exists: it is open, or they host it or are invited to it. Arguments are SQL
 * expressions (a meetings alias and the viewer's id).
 */
const meetingVisibleSql = (meeting: string, viewer: string) =>
  `(${meeting}.visibility = 'open' OR ${meeting}.host_id = ${viewer}
    OR EXISTS (SELECT 1 FROM meeting_invitees v WHERE v.meeting_id = ${meeting}.id AND v.user_id = ${viewer}))`;

const toMeeting = (row: MeetingRow): Meeting => ({
  id: row.id,
  hostId: row.host_id,
  title: row.title,
  startsAt: row.starts_at,
  status: row.status as MeetingStatus,
  visibility: row.visibility as MeetingVisibility,
  inviteeIds: row.invitee_ids,
  endedAt: row.ended_at,
  createdAt: row.created_at,
});

/** Raw SQL: the join, leave and end statements carry the locking that keeps them consistent. */
export const createMeetingRepository = (db: SqlExecutor): MeetingRepository => ({
  async create(meeting) {
    await db.query(
      `INSERT INTO meetings (id, host_id, title, starts_at, status, visibility, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [
        meeting.id,
        meeting.hostId,
        meeting.title,
        meeting.startsAt,
        meeting.status,
        meeting.visibility,
        meeting.createdAt,
      ],
    );
    if (meeting.inviteeIds.length > 0) {
      await db.query("INSERT INTO meeting_invitees (meeting_id, user_id) SELECT $1, unnest($2::uuid[])", [
        meeting.id,
        meeting.inviteeIds,
      ]);
    }
  },

  async findById(id) {
    const { rows } = await db.query<MeetingRow>(`SELECT ${columns} FROM meetings m WHERE m.id = $1`, [
      idParam(id),
    ]);

    return rows[0] ? toMeeting(rows[0]) : null;
  },

  async findByIdForJoin(id) {
    const { rows } = await db.query<MeetingRow>(
      `SELECT ${columns} FROM meetings m WHERE m.id = $1 FOR SHARE OF m`,
      [idParam(id)],
    );

    return rows[0] ? toMeeting(rows[0]) : null;
  },

  async listOpenFor(viewerId, { after, limit }) {
    const viewer = "$1::uuid";
    const where = `m.status <> 'ended' AND ${meetingVisibleSql("m", viewer)} AND ${notBlockedSql("m.host_id", viewer)}`;
    // After a cursor: past the cursor meeting's (starts_at, id), an index condition on
    // meetings_open_starts_at_idx (a start never changes, so the position holds).
    const { rows } =
      after === undefined
        ? await db.query<MeetingRow>(
            `SELECT ${columns} FROM meetings m WHERE ${where} ORDER BY m.starts_at, m.id LIMIT $2`,
            [idParam(viewerId), limit],
            "meetings_open_for",
          )
        : await db.query<MeetingRow>(
            `SELECT ${columns} FROM meetings m
              WHERE ${where}
                AND (m.starts_at, m.id) > ((SELECT a.starts_at FROM meetings a WHERE a.id = $3), $3::uuid)
              ORDER BY m.starts_at, m.id LIMIT $2`,
            [idParam(viewerId), limit, idParam(after)],
            "meetings_open_for_after",
          );

    return rows.map(toMeeting);
  },

  async findInviteeCandidates(hostId, userIds) {
    const ids = userIds.flatMap((id) => idParam(id) ?? []);
    if (ids.length === 0) {
      return [];
    }
    const { rows } = await db.query<{ id: string; status: UserStatus; blocked: boolean }>(
      `SELECT u.id, u.status, NOT ${notBlockedSql("u.id", "$1::uuid")} AS blocked
         FROM users u WHERE u.id = ANY($2::uuid[])`,
      [idParam(hostId), ids],
    );

    return rows.map((row) => ({ userId: row.id, status: row.status, blockedEitherWay: row.blocked }));
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
    const { rowCount } = await db.query(
      "UPDATE meetings SET status = 'ended', ended_at = $2, updated_at = $2 WHERE id = $1 AND status <> 'ended'",
      [key, at],
    );
    if (rowCount > 0) {
      await db.query(
        "UPDATE meeting_participants SET left_at = $2 WHERE meeting_id = $1 AND left_at IS NULL",
        [key, at],
      );
    }
    const meeting = await this.findById(id);

    return meeting ? { meeting, ended: rowCount > 0 } : null;
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

  async isParticipating(meetingId, userId) {
    const { rows } = await db.query(
      "SELECT 1 FROM meeting_participants WHERE meeting_id = $1 AND user_id = $2 AND left_at IS NULL",
      [idParam(meetingId), idParam(userId)],
    );

    return rows.length > 0;
  },
});
