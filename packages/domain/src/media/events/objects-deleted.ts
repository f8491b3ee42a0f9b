import { z } from "zod";
import { defineEventKind } from "../../outbox/event-kind";
import type { ObjectStore } from "../media.ports";

/** Object keys per event: each is one object-store call at delivery. */
export const OBJECTS_PER_EVENT = 100;

/** What deleting objects needs at delivery. */
export type MediaObjectDeps = { objects: Pick<ObjectStore, "delete"> };

/**
 * Media objects whose rows are gone (account deletion): the worker deletes them from the object
 * store after the transaction that removed the rows committed. Deleting a missing object succeeds,
 * so a retried delivery (a store that failed half-way) finishes the rest.
 */
export const mediaObjectsDeleted = defineEventKind({
  kind: "media.objects_deleted",
  aggregateType: "user",
  payload: z.object({ object_keys: z.array(z.string().min(1)).min(1).max(OBJECTS_PER_EVENT) }),
  deliver: async ({ objects }: MediaObjectDeps, { payload }) => {
    for (const key of payload.object_keys) {
      await objects.delete(key);
    }
  },
});
