import { isUuid } from "@agora/domain/common/ids";

/**
 * An id parameter as the data layer binds it: ids arrive from paths and bodies as free text, and
 * text that is not a UUID cannot name a row, so it is bound as NULL and simply finds nothing
 * (PostgreSQL would refuse to cast it).
 */
export const idParam = (id: string | null | undefined): string | null =>
  id !== null && id !== undefined && isUuid(id) ? id : null;
