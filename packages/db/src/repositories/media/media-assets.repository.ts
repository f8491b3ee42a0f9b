import type { MediaAssetRepository } from "@agora/domain/media/media.ports";
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
import { momentVisibleToSql } from "../community/moment-queries";

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
export const createMediaAssetRepository = (db: SqlExecutor): MediaAssetRepository => ({
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
      is_evidence: boolean;
      reviewer_ids: string[];
      message_participant_ids: string[];
    }>(
      `SELECT EXISTS (SELECT 1 FROM moment_media mm JOIN moments m ON m.id = mm.moment_id
                       WHERE mm.media_asset_id = $1 AND ${momentVisibleToSql("$2::uuid")}) AS on_visible_moment,
              EXISTS (SELECT 1 FROM listing_media lm JOIN listings l ON l.id = lm.listing_id
                       WHERE lm.media_asset_id = $1
                         AND listing_publicly_visible(l.status, l.subscription_status, l.provider_approved,
                                                      l.owner_active, l.subscription_expires_at, $3)) AS on_visible_listing,
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
      paymentEvidence: row?.is_evidence ? { reviewerIds: row.reviewer_ids } : null,
      messageParticipantIds: row?.message_participant_ids ?? [],
    };
  },

  async findOnListing(listingId, options) {
    if (options?.lock) {
      await db.query(
        "SELECT 1 FROM listings WHERE id = $1 FOR UPDATE",
        [idParam(listingId)],
        "listings_lock",
      );
    }
    const { rows } = await db.query<MediaAssetRow>(
      `SELECT ${assetColumns.replace(/(\w+)/g, "a.$1")} FROM listing_media lm
         JOIN media_assets a ON a.id = lm.media_asset_id
        WHERE lm.listing_id = $1 ORDER BY lm.position`,
      [idParam(listingId)],
      "media_assets_on_listing",
    );

    return rows.map(toAsset);
  },

  async setListingMedia(listingId, ids) {
    // The assets leaving the gallery: detached and private, left to the orphan purge.
    await db.query(
      `UPDATE media_assets SET attached_at = NULL, visibility = 'private'
        WHERE id IN (SELECT media_asset_id FROM listing_media WHERE listing_id = $1)
          AND NOT (id = ANY($2::uuid[]))`,
      [listingId, ids],
      "media_assets_listing_detach",
    );
    await db.query("DELETE FROM listing_media WHERE listing_id = $1", [listingId], "listing_media_clear");
    if (ids.length > 0) {
      await db.query(
        `INSERT INTO listing_media (listing_id, position, media_asset_id)
         SELECT $1, ordinality - 1, id FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ordinality)`,
        [listingId, ids],
        "listing_media_insert",
      );
    }
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
    const { rowCount } = await db.query(
      `UPDATE media_assets SET processing = $2, rejected_reason = $3, image = $4::jsonb
        WHERE id = $1 AND processing = 'processing'`,
      outcome.processing === "ready"
        ? [id, "ready", null, outcome.image ? JSON.stringify(outcome.image) : null]
        : [id, "rejected", outcome.reason, null],
      "media_assets_record_processing",
    );

    return rowCount === 1;
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
          AND status = 'uploaded' AND processing = 'ready' AND attached_at IS NULL
       RETURNING id`,
      [keys, owner.ownerId, owner.purpose, options.at, options.public],
      "media_assets_attach",
    );

    return rows.map((row) => row.id);
  },

  async deletePublishedBy(ownerId) {
    const { rows } = await db.query<{ object_key: string }>(
      `DELETE FROM media_assets WHERE owner_id = $1 AND purpose <> 'payment_evidence' RETURNING object_key`,
      [idParam(ownerId)],
    );

    return rows.map((row) => row.object_key);
  },
});
