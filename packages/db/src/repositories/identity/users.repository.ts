import type { Role } from "@agora/domain/common/actor";
import type { NewUser, UserRepository } from "@agora/domain/identity/identity.ports";
import type { User, UserStatus, UserWithSecret } from "@agora/domain/identity/identity.types";
import { isUniqueViolation } from "../../errors";
import { createFilters, selectPage, substringPattern } from "../../filters";
import type { User as UserModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";

type UserRow = Pick<
  RowOf<UserModel>,
  "id" | "email" | "username" | "display_name" | "locale" | "role" | "status" | "created_at"
> &
  Partial<Pick<RowOf<UserModel>, "password_hash">>;

const columns = "id, email, username::text AS username, display_name, locale, role, status, created_at";

const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  username: row.username,
  displayName: row.display_name,
  locale: row.locale,
  role: row.role as Role,
  status: row.status as UserStatus,
  createdAt: row.created_at,
});

const toUserWithSecret = (row: UserRow): UserWithSecret => ({
  ...toUser(row),
  passwordHash: row.password_hash ?? "",
});

export const createUserRepository = (db: SqlExecutor): UserRepository => ({
  async findById(id) {
    const { rows } = await db.query<UserRow>(
      `SELECT ${columns}, password_hash FROM users WHERE id = $1`,
      [idParam(id)],
      "users_find_by_id",
    );

    return rows[0] ? toUserWithSecret(rows[0]) : null;
  },

  async findByIdForUpdate(id) {
    const { rows } = await db.query<UserRow>(`SELECT ${columns} FROM users WHERE id = $1 FOR UPDATE`, [
      idParam(id),
    ]);

    return rows[0] ? toUser(rows[0]) : null;
  },

  async findByEmail(email) {
    const { rows } = await db.query<UserRow>(
      `SELECT ${columns}, password_hash FROM users WHERE email = $1`,
      [email],
      "users_find_by_email",
    );

    return rows[0] ? toUserWithSecret(rows[0]) : null;
  },

  async create(user: NewUser) {
    // DO NOTHING covers both unique indexes without aborting an enclosing transaction.
    const { rows } = await db.query(
      `INSERT INTO users (id, email, username, display_name, locale, password_hash, role, status,
                          email_verified_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $8 = 'active' THEN $9::timestamptz END, $9, $9)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        user.id,
        user.email,
        user.username,
        user.displayName,
        user.locale,
        user.passwordHash,
        user.role,
        user.status,
        user.createdAt,
      ],
    );
    if (rows.length === 1) {
      return "created";
    }
    const taken = await db.query<{ email_taken: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM users WHERE email = $1) AS email_taken",
      [user.email],
    );

    return taken.rows[0]?.email_taken ? "email_taken" : "username_taken";
  },

  async isUsernameTaken(username) {
    const { rows } = await db.query<{ taken: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM users WHERE username = $1) AS taken",
      [username],
      "users_username_taken",
    );

    return rows[0]?.taken === true;
  },

  async deletePending(id, createdBefore) {
    // The lock comes first: a verification committing meanwhile makes the row not pending, and
    // then nothing that refers to it is touched.
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM users WHERE id = $1 AND status = 'pending_verification'
          AND ($2::timestamptz IS NULL OR created_at < $2) FOR UPDATE`,
      [idParam(id), createdBefore ?? null],
    );
    if (rows.length === 0) {
      return false;
    }
    // What a pending account can be named by: its codes, blocks and meeting invitations.
    await db.query("DELETE FROM auth_codes WHERE user_id = $1", [id]);
    await db.query("DELETE FROM user_blocks WHERE blocker_id = $1 OR blocked_id = $1", [id]);
    await db.query("DELETE FROM meeting_invitees WHERE user_id = $1", [id]);
    await db.query("DELETE FROM users WHERE id = $1", [id]);

    return true;
  },

  async lockActiveAdmins() {
    const { rows } = await db.query<{ id: string }>(
      "SELECT id FROM users WHERE role = 'admin' AND status = 'active' ORDER BY id FOR UPDATE",
      [],
    );

    return rows.map((row) => row.id);
  },

  async updateProfile(id, profile, at) {
    try {
      const { rows } = await db.query<UserRow>(
        `UPDATE users SET username = $2, display_name = $3, updated_at = $4
          WHERE id = $1 AND status <> 'deleted' RETURNING ${columns}`,
        [id, profile.username, profile.displayName, at],
      );

      return rows[0] ? toUser(rows[0]) : null;
    } catch (error) {
      if (isUniqueViolation(error, "users_username_key")) {
        return "username_taken";
      }
      throw error;
    }
  },

  async setStatus(id, status, at) {
    const { rows } = await db.query<UserRow>(
      `UPDATE users SET status = $2, updated_at = $3 WHERE id = $1 RETURNING ${columns}`,
      [id, status, at],
    );

    return rows[0] ? toUser(rows[0]) : null;
  },

  async markEmailVerified(id, at) {
    await db.query("UPDATE users SET email_verified_at = $2 WHERE id = $1 AND email_verified_at IS NULL", [
      id,
      at,
    ]);
  },

  async setRole(id, role, at) {
    const { rows } = await db.query<UserRow>(
      `UPDATE users SET role = $2, updated_at = $3 WHERE id = $1 RETURNING ${columns}`,
      [id, role, at],
    );

    return rows[0] ? toUser(rows[0]) : null;
  },

  async setPasswordHash(id, passwordHash, at) {
    await db.query("UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1", [
      id,
      passwordHash,
      at,
    ]);
  },

  async setEmail(id, email, at) {
    try {
      const { rows } = await db.query(
        `UPDATE users SET email = $2, email_verified_at = $3, updated_at = $3
          WHERE id = $1 AND status <> 'deleted' RETURNING id`,
        [idParam(id), email, at],
      );

      return rows.length === 1 ? "updated" : null;
    } catch (error) {
      // The unique index decides a race for the address; the caller rolls its transaction back.
      if (isUniqueViolation(error, "users_email_key")) {
        return "email_taken";
      }
      throw error;
    }
  },

  async activate(id, at) {
    const { rows } = await db.query(
      `UPDATE users SET status = 'active', email_verified_at = $2, updated_at = $2
        WHERE id = $1 AND status = 'pending_verification' RETURNING id`,
      [id, at],
    );

    return rows.length === 1;
  },

  async markDeleted(id, at) {
    // With the account, when it was last active on chat (chat presence's record).
    await db.query(
      `WITH presence AS (DELETE FROM chat_presence WHERE user_id = $1)
       UPDATE users
          SET status = 'deleted', deleted_at = $2, updated_at = $2,
              email = 'deleted+' || id || '@deleted.invalid', username = 'deleted-' || id,
              display_name = '', locale = NULL, password_hash = ''
        WHERE id = $1 AND status <> 'deleted'`,
      [id, at],
    );
  },

  async findPage(filter, page) {
    const filters = createFilters();
    if (filter.q !== undefined) {
      const pattern = filters.param(substringPattern(filter.q));
      filters.where(
        `(email ILIKE ${pattern} OR username::text ILIKE ${pattern} OR display_name ILIKE ${pattern})`,
      );
    }
    filters.where(filter.status !== undefined && `status = ${filters.param(filter.status)}`);
    filters.where(filter.role !== undefined && `role = ${filters.param(filter.role)}`);
    const { rows, total } = await selectPage<UserRow>(
      db,
      {
        select: columns,
        from: "users",
        order: { table: "users", direction: "DESC" },
        filters,
        search: filter.q !== undefined,
      },
      page,
    );

    return { items: rows.map(toUser), total };
  },
});
