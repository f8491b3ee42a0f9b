/** A page of a longer list: the items asked for and how many there are in all. */
export type Page<T> = { items: T[]; total: number };

/** limit/offset as validated at the edge (limit 1-100, offset 0 or more). */
export type PageRequest = { limit: number; offset: number };
