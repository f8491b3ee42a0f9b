import { z } from "zod";
import type { ObjectStore } from "../../media/media.ports";
import { defineEventKind } from "../../outbox/event-kind";
import type { DataExportDeliveryStore } from "../identity.ports";

/** What ending an export needs at delivery. */
export type ExportExpiryDeps = {
  dataExports: Pick<DataExportDeliveryStore, "findById" | "markExpired">;
  objects: Pick<ObjectStore, "delete">;
};

/**
 * A data export's day is over (appended when it became ready, due at its `expires_at`): its object
 * is deleted and the row marked expired. Deleting a missing object succeeds and marking twice
 * changes nothing, so a redelivery is harmless.
 */
export const exportExpired = defineEventKind({
  kind: "identity.export_expired",
  aggregateType: "data_export",
  payload: z.object({ export_id: z.uuid(), user_id: z.uuid() }),
  deliver: async ({ dataExports, objects }: ExportExpiryDeps, { payload }) => {
    const exported = await dataExports.findById(payload.export_id);
    if (!exported || exported.objectKey === null) {
      return;
    }
    if (exported.status === "ready" || exported.status === "expired") {
      await objects.delete(exported.objectKey);
      await dataExports.markExpired(exported.id);
    }
  },
});
