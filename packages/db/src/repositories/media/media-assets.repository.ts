import type { MediaAssetRepository } from "@agora/domain/media/media.ports";
import type { MediaAsset, MediaMimeType, MediaPurpose, MediaStatus } from "@agora/domain/media/media.types";
import type { MediaAsset as MediaAssetModel } from "../../generated/prisma/client";
import { idParam } from "../../ids";
import type { RowOf } from "../../rows";
import type { SqlExecutor } from "../../sql";
import { momentVisibleToSql } from "../community/moment-queries";

type MediaAssetRow = RowOf<MediaAssetModel>;

const assetColumns =
  "id, owner_id, purpose, mime_type, size_bytes, object_key, status, visibility, uploaded_at, attached_at, created_at";

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
});

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

  async findAttachments(id, viewerId) {
    // One statement for the read policy's facts. Evidence reviewers: the provider owner of an order
    // payment (a subscription payment is reviewed by administrators only).
    const { rows } = await db.query<{
      on_visible_moment: boolean;
      is_evidence: boolean;
      reviewer_ids: string[];
    }>(
      `SELECT EXISTS (SELECT 1 FROM moment_media mm JOIN moments m ON m.id = mm.moment_id
                       WHERE mm.media_asset_id = $1 AND ${momentVisibleToSql("$2::uuid")}) AS on_visible_moment,
              EXISTS (SELECT 1 FROM payments pay WHERE pay.evidence_media_asset_id = $1) AS is_evidence,
              ARRAY(SELECT op.user_id::text FROM payments pay
                      JOIN orders o ON o.id = pay.order_id
                      JOIN provider_profiles op ON op.id = o.provider_id
                     WHERE pay.evidence_media_asset_id = $1) AS reviewer_ids`,
      [idParam(id), idParam(viewerId)],
      "media_assets_attachments",
    );
    const row = rows[0];

    return {
      onVisibleMoment: row?.on_visible_moment ?? false,
      paymentEvidence: row?.is_evidence ? { reviewerIds: row.reviewer_ids } : null,
    };
  },

  async markUploaded(id, at) {
    await db.query(
      "UPDATE media_assets SET status = 'uploaded', uploaded_at = $2 WHERE id = $1 AND status = 'pending'",
      [id, at],
      "media_assets_mark_uploaded",
    );
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
          AND status = 'uploaded' AND attached_at IS NULL
       RETURNING id`,
      [keys, owner.ownerId, owner.purpose, options.at, options.public],
      "media_assets_attach",
    );

    return rows.map((row) => row.id);
  },
});
