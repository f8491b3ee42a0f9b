import { v7 } from "uuid";

/** Identifier source: UUIDv7 (time-ordered, so new rows append to the primary-key index). */
export interface IdGenerator {
  next(): string;
}

export const uuidV7Ids: IdGenerator = { next: () => v7() };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive in paths as free text; anything that is not a UUID cannot name a row. */
export const isUuid = (value: string): boolean => uuidPattern.test(value);
