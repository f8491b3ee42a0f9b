import type { MenuItemRepository } from "@agora/domain/marketplace/marketplace.ports";
import type { MenuItem } from "@agora/domain/marketplace/marketplace.types";
import type { MenuItem as MenuItemModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { orderableAt } from "./listing-queries";

type MenuItemRow = Omit<RowOf<MenuItemModel>, "deleted_at">;

/** A menu item from its row. */
const toMenuItem = (item: MenuItemRow): MenuItem => ({
  id: item.id,
  listingId: item.listing_id,
  name: item.name,
  description: item.description,
  priceAmount: Number(item.price_amount),
  currency: item.currency,
  active: item.active,
  createdAt: new Date(item.created_at),
  updatedAt: new Date(item.updated_at),
});

const menuItemColumns =
  "m.id, m.listing_id, m.name, m.description, m.price_amount, m.currency, m.active, m.created_at, m.updated_at";

export const createMenuItemRepository = (db: SqlExecutor): MenuItemRepository => ({
  async create(item, heldAt) {
    await db.query(
      `INSERT INTO menu_items (id, listing_id, name, description, price_amount, currency, active, created_at, updated_at,
                               held_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        item.id,
        item.listingId,
        item.name,
        item.description,
        item.priceAmount,
        item.currency,
        item.active,
        item.createdAt,
        item.updatedAt,
        heldAt ?? null,
      ],
    );
  },

  async findById(id) {
    const { rows } = await db.query<MenuItemRow & { provider_id: string }>(
      `SELECT ${menuItemColumns}, l.provider_id FROM menu_items m JOIN listings l ON l.id = m.listing_id
        WHERE m.id = $1 AND m.deleted_at IS NULL`,
      [idParam(id)],
    );
    const row = rows[0];

    return row ? { ...toMenuItem(row), providerId: row.provider_id } : null;
  },

  async findPublicById(id, now) {
    const { rows } = await db.query<
      Pick<MenuItemRow, "name" | "price_amount" | "currency"> & {
        menu_item_id: string;
        listing_id: string;
        provider_id: string;
        provider_user_id: string;
      }
    >(
      `SELECT m.id AS menu_item_id, l.id AS listing_id, l.provider_id, p.user_id AS provider_user_id,
              m.name, m.price_amount, m.currency
         FROM menu_items m
         JOIN listings l ON l.id = m.listing_id
         JOIN provider_profiles p ON p.id = l.provider_id
        WHERE m.id = $2 AND ${orderableAt("$1")}`,
      [now, idParam(id)],
      "menu_items_public_by_id",
    );
    const row = rows[0];

    return row
      ? {
          menuItemId: row.menu_item_id,
          listingId: row.listing_id,
          providerId: row.provider_id,
          providerUserId: row.provider_user_id,
          name: row.name,
          priceAmount: Number(row.price_amount),
          currency: row.currency,
        }
      : null;
  },

  async update(id, changes, at) {
    const { rows } = await db.query<MenuItemRow>(
      `UPDATE menu_items m
          SET name = COALESCE($2, m.name),
              description = COALESCE($3, m.description),
              price_amount = COALESCE($4::bigint, m.price_amount),
              currency = COALESCE($5, m.currency),
              active = COALESCE($6::boolean, m.active),
              updated_at = $7,
              held_at = CASE WHEN $8::boolean THEN COALESCE(m.held_at, $7) ELSE m.held_at END
        WHERE m.id = $1 AND m.deleted_at IS NULL
       RETURNING ${menuItemColumns}`,
      [
        id,
        changes.name ?? null,
        changes.description ?? null,
        changes.priceAmount ?? null,
        changes.currency ?? null,
        changes.active ?? null,
        at,
        changes.hold === true,
      ],
    );

    return rows[0] ? toMenuItem(rows[0]) : null;
  },

  async markDeleted(id, at) {
    await db.query("UPDATE menu_items SET active = false, deleted_at = $2, updated_at = $2 WHERE id = $1", [
      id,
      at,
    ]);
  },
});
