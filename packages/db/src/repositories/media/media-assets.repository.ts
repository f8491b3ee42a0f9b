import type { MediaAssetRepository, MediaRecordKind } from "@agora/domain/media/media.ports";
import type {
  MediaAsset,
  MediaMimeType,
  MediaProcessing,
  MediaPurpose,
  MediaStatus,
  ProcessedImage,
} from "@agora/domain/media/media.types";
import type { MediaAsset as MediaAssetModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { authorPresentSql, momentVisibleToSql } from "../community/moment-queries";
import { notBlockedSql } from "../community/user-blocks.repository";
import { orderableAt, visibleAt } from "../marketplace/listing-queries";

type MediaAssetRow = RowOf<MediaAssetModel>;

const assetColumns =
  "id, owner_id, purpose, mime_type, size_bytes, object_key, status, visibility, uploaded_at, attached_at, created_at, processing, rejected_reason, image";

const toAsset = (row: MediaAssetRow): MediaAsset => ({
  id: row.id,
  ownerId: row.owner_id,
  purpose: row.purpose as MediaPurpose,
  mimeType: row.mime_type as MediaMimeType,
  sizeBytes: row.size_bytes,
  objectKey: row.object_key,
  status: row.status as MediaStatus,
  visibility: row.visibility as MediaAsset["visibility"],
  uploadedAt: row.uploaded_at,
  attachedAt: row.attached_at,
  createdAt: row.created_at,
  processing: row.processing as MediaProcessing | null,
  rejectedReason: row.rejected_reason,
  image: row.image as ProcessedImage | null,
});

const prefixedColumns = assetColumns.replace(/(\w+)/g, "a.$1");

/** Each record kind's link table and its record key, and the record's table and primary key. */
const recordTables: Record<MediaRecordKind, { link: string; key: string; record: string; id: string }> = {
  listing: { link: "listing_media", key: "listing_id", record: "listings", id: "id" },
  menu_item: { link: "menu_item_media", key: "menu_item_id", record: "menu_items", id: "id" },
  provider: { link: "provider_media", key: "provider_id", record: "provider_profiles", id: "id" },
  dating_profile: { link: "dating_profile_media", key: "user_id", record: "dating_profiles", id: "user_id" },
  user: { link: "user_media", key: "user_id", record: "users", id: "id" },
};

/** A media_assets row as JSON (`json_agg` of the row): its timestamps arrive as text. */
export const assetFromJson = (row: Record<string, unknown>): MediaAsset => {
  const at = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)));

  return toAsset({
    ...(row as MediaAssetRow),
    uploaded_at: at(row.uploaded_at),
    attached_at: at(row.attached_at),
    created_at: at(row.created_at) ?? new Date(0),
  });
};

/**
 * The media of each chat message of `alias` (its id), in the order sent, as a JSON array of
 * media_assets rows (assetFromJson): one probe of message_media's primary key per message, so a
 * text-only message costs an empty index scan.
 */
export const messageMediaSql = (alias: string) =>
  `COALESCE((SELECT json_agg(a ORDER BY mm.position) FROM message_media mm
              JOIN media_assets a ON a.id = mm.media_asset_id WHERE mm.message_id = ${alias}.id), '[]'::json)`;

/** Media assets in raw SQL: a read URL is asked for every image a client shows. */
export const createMediaAssetRepository = (db: SqlExecutor): MediaAssetRepository => {
  const findOnRecord = async (
    kind: MediaRecordKind,
    recordId: string,
    options?: { lock?: boolean },
  ): Promise<MediaAsset[]> => {
    const { link, key, record, id } = recordTables[kind];
    if (options?.lock) {
      await db.query(
        `SELECT 1 FROM ${record} WHERE ${id} = $1 FOR UPDATE`,
        [idParam(recordId)],
        `${record}_lock`,
      );
    }
    const { rows } = await db.query<MediaAssetRow>(
      `SELECT ${prefixedColumns} FROM ${link} r
         JOIN media_assets a ON a.id = r.media_asset_id
        WHERE r.${key} = $1 ORDER BY r.position`,
      [idParam(recordId)],
      `media_assets_on_${kind}`,
    );

    return rows.map(toAsset);
  };

  const setRecordMedia = async (kind: MediaRecordKind, recordId: string, ids: readonly string[]) => {
    const { link, key } = recordTables[kind];
    // The assets leaving the record: detached and private, left to the orphan purge.
    await db.query(
      `UPDATE media_assets SET attached_at = NULL, visibility = 'private'
        WHERE id IN (SELECT media_asset_id FROM ${link} WHERE ${key} = $1)
          AND NOT (id = ANY($2::uuid[]))`,
      [recordId, ids],
      `media_assets_${kind}_detach`,
    );
    await db.query(`DELETE FROM ${link} WHERE ${key} = $1`, [recordId], `${link}_clear`);
    if (ids.length > 0) {
      await db.query(
        `INSERT INTO ${link} (${key}, position, media_asset_id)
         SELECT $1, ordinality - 1, id FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ordinality)`,
        [recordId, ids],
        `${link}_insert`,
      );
    }
  };

  return {
    async create(asset) {
      await db.query(
        `INSERT INTO media_assets (id, owner_id, purpose, mime_type, size_bytes, object_key, status, visibility, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          asset.id,
          asset.ownerId,
          asset.purpose,
          asset.mimeType,
          asset.sizeBytes,
          asset.objectKey,
          asset.status,
          asset.visibility,
          asset.createdAt,
        ],
        "media_assets_create",
      );
    },

    async lockPendingUploads(ownerId, since) {
      // The account's row serializes its upload requests: the count and the insert that follows are
      // one step for each (FOR NO KEY UPDATE leaves the foreign-key checks of other inserts alone).
      await db.query("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE", [ownerId], "media_lock_uploader");
      // media_assets_owner_unattached_idx: the owner's unattached assets, newest last.
      const { rows } = await db.query<{ created_at: Date; size_bytes: number }>(
        `SELECT created_at, size_bytes FROM media_assets
          WHERE owner_id = $1 AND attached_at IS NULL AND status <> 'expired' AND created_at > $2`,
        [ownerId, since],
        "media_pending_uploads",
      );

      return rows.map((row) => ({ createdAt: row.created_at, sizeBytes: row.size_bytes }));
    },

    async findById(id) {
      const { rows } = await db.query<MediaAssetRow>(
        `SELECT ${assetColumns} FROM media_assets WHERE id = $1`,
        [idParam(id)],
        "media_assets_find_by_id",
      );

      return rows[0] ? toAsset(rows[0]) : null;
    },

    async findByIds(ids) {
      const keys = ids.map(idParam).filter((key): key is string => key !== null);
      if (keys.length === 0) {
        return [];
      }
      const { rows } = await db.query<MediaAssetRow>(
        `SELECT ${assetColumns} FROM media_assets WHERE id = ANY($1::uuid[])`,
        [keys],
        "media_assets_find_by_ids",
      );

      return rows.map(toAsset);
    },

    async findAttachments(id, viewerId, at) {
      // One statement for the read policy's facts. Evidence reviewers: the provider owner of an order
      // payment (a subscription payment is reviewed by administrators only).
      const { rows } = await db.query<{
        on_visible_moment: boolean;
        on_visible_listing: boolean;
        on_visible_menu_item: boolean;
        on_visible_provider: boolean;
        on_visible_dating_profile: boolean;
        on_visible_avatar: boolean;
        is_evidence: boolean;
        reviewer_ids: string[];
        message_participant_ids: string[];
      }>(
        `SELECT EXISTS (SELECT 1 FROM moment_media mm JOIN moments m ON m.id = mm.moment_id
                       WHERE mm.media_asset_id = $1 AND ${momentVisibleToSql("$2::uuid")}) AS on_visible_moment,
              EXISTS (SELECT 1 FROM listing_media lm JOIN listings l ON l.id = lm.listing_id
                       WHERE lm.media_asset_id = $1
                         AND ${visibleAt("$3")}) AS on_visible_listing,
              EXISTS (SELECT 1 FROM menu_item_media im JOIN menu_items mi ON mi.id = im.menu_item_id
                        JOIN listings l ON l.id = mi.listing_id
                       WHERE im.media_asset_id = $1 AND ${orderableAt("$3", "mi")}) AS on_visible_menu_item,
              EXISTS (SELECT 1 FROM provider_media pm JOIN provider_profiles pp ON pp.id = pm.provider_id
                       WHERE pm.media_asset_id = $1 AND pp.approval_status = 'approved'
                         AND ${authorPresentSql("pp.user_id")}) AS on_visible_provider,
              EXISTS (SELECT 1 FROM dating_profile_media dm JOIN dating_profiles d ON d.user_id = dm.user_id
                       WHERE dm.media_asset_id = $1 AND d.visible AND d.held_at IS NULL AND ${authorPresentSql("d.user_id")}
                         AND ${notBlockedSql("$2::uuid", "d.user_id")}) AS on_visible_dating_profile,
              EXISTS (SELECT 1 FROM user_media um
                       WHERE um.media_asset_id = $1 AND ${authorPresentSql("um.user_id")}
                         AND ${notBlockedSql("$2::uuid", "um.user_id")}) AS on_visible_avatar,
              EXISTS (SELECT 1 FROM payments pay WHERE pay.evidence_media_asset_id = $1) AS is_evidence,
              ARRAY(SELECT op.user_id::text FROM payments pay
                      JOIN orders o ON o.id = pay.order_id
                      JOIN provider_profiles op ON op.id = o.provider_id
                     WHERE pay.evidence_media_asset_id = $1) AS reviewer_ids,
              ARRAY(SELECT unnest(ARRAY[c.user_a_id, c.user_b_id])::text FROM message_media mm
                      JOIN chat_messages cm ON cm.id = mm.message_id
                      JOIN conversations c ON c.id = cm.conversation_id
                     WHERE mm.media_asset_id = $1) AS message_participant_ids`,
        [idParam(id), idParam(viewerId), at],
        "media_assets_attachments",
      );
      const row = rows[0];

      return {
        onVisibleMoment: row?.on_visible_moment ?? false,
        onVisibleListing: row?.on_visible_listing ?? false,
        onVisibleMenuItem: row?.on_visible_menu_item ?? false,
        onVisibleProvider: row?.on_visible_provider ?? false,
        onVisibleDatingProfile: row?.on_visible_dating_profile ?? false,
        onVisibleAvatar: row?.on_visible_avatar ?? false,
        paymentEvidence: row?.is_evidence ? { reviewerIds: row.reviewer_ids } : null,
        messageParticipantIds: row?.message_participant_ids ?? [],
      };
    },

    findOnRecord(kind, recordId, options) {
      return findOnRecord(kind, recordId, options);
    },

    async findOnRecords(kind, recordIds, options) {
      const keys = recordIds.map(idParam).filter((key): key is string => key !== null);
      const found = new Map<string, MediaAsset[]>();
      if (keys.length === 0) {
        return found;
      }
      const { link, key } = recordTables[kind];
      // `first`: each record's first image not rejected (DISTINCT ON keeps the first row per record
      // in position order; the link's primary key is (record, position)).
      const { rows } = await db.query<MediaAssetRow & { record_id: string }>(
        options?.first
          ? `SELECT DISTINCT ON (r.${key}) r.${key} AS record_id, ${prefixedColumns} FROM ${link} r
               JOIN media_assets a ON a.id = r.media_asset_id
              WHERE r.${key} = ANY($1::uuid[]) AND a.processing IS DISTINCT FROM 'rejected'
              ORDER BY r.${key}, r.position`
          : `SELECT r.${key} AS record_id, ${prefixedColumns} FROM ${link} r
               JOIN media_assets a ON a.id = r.media_asset_id
              WHERE r.${key} = ANY($1::uuid[])
              ORDER BY r.${key}, r.position`,
        [keys],
        `media_assets_on_${kind}s${options?.first ? "_first" : ""}`,
      );
      for (const row of rows) {
        const list = found.get(row.record_id) ?? [];
        list.push(toAsset(row));
        found.set(row.record_id, list);
      }

      return found;
    },

    setRecordMedia(kind, recordId, ids) {
      return setRecordMedia(kind, recordId, ids);
    },

    async markUploaded(id, at) {
      const { rowCount } = await db.query(
        `UPDATE media_assets SET status = 'uploaded', uploaded_at = $2, processing = 'processing'
        WHERE id = $1 AND status = 'pending'`,
        [id, at],
        "media_assets_mark_uploaded",
      );

      return rowCount === 1;
    },

    async recordProcessing(id, outcome) {
      // An attach holding the row's lock is waited for: RETURNING then shows its attached_at.
      const { rows } = await db.query<MediaAssetRow>(
        `UPDATE media_assets SET processing = $2, rejected_reason = $3, image = $4::jsonb
        WHERE id = $1 AND processing = 'processing'
        RETURNING ${assetColumns}`,
        outcome.processing === "ready"
          ? [id, "ready", null, outcome.image ? JSON.stringify(outcome.image) : null]
          : [id, "rejected", outcome.reason, null],
        "media_assets_record_processing",
      );

      return rows[0] ? toAsset(rows[0]) : null;
    },

    async attach(ids, owner, options) {
      const keys = ids.map(idParam).filter((key): key is string => key !== null);
      if (keys.length === 0) {
        return [];
      }
      // The conditions are checked again on the locked rows: a concurrent attach or the orphan
      // sweep's expiry that committed first makes this one skip the row.
      const { rows } = await db.query<{ id: string }>(
        `UPDATE media_assets
          SET attached_at = $4, visibility = CASE WHEN $5 THEN 'public' ELSE visibility END
        WHERE id = ANY($1::uuid[]) AND owner_id = $2 AND purpose = $3
          AND status = 'uploaded' AND processing IN ('processing', 'ready') AND attached_at IS NULL
       RETURNING id`,
        [keys, owner.ownerId, owner.purpose, options.at, options.public],
        "media_assets_attach",
      );

      return rows.map((row) => row.id);
    },

    async deletePublishedBy(ownerId) {
      const { rows } = await db.query<{ id: string; object_key: string }>(
        `DELETE FROM media_assets WHERE owner_id = $1 AND purpose <> 'payment_evidence' RETURNING id, object_key`,
        [idParam(ownerId)],
      );

      return rows.map((row) => ({ id: row.id, objectKey: row.object_key }));
    },
  };
};
