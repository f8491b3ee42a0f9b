import { z } from "zod";

export const idParamSchema = z.object({ id: z.string().meta({ description: "Resource id." }) });

export const timestampSchema = z.iso
  .datetime({ offset: true })
  .meta({ description: "RFC 3339 timestamp, UTC." });

// PostgreSQL has no year 0 (before year 1 come BC dates), so an instant before this one, written
// as an ISO date-time, is refused by the database (error 22008).
const EARLIEST_INSTANT_MS = Date.parse("0001-01-01T00:00:00Z");

/**
 * The building block for date-time input: RFC 3339 with an offset, an instant from year 1 (UTC) on.
 * Add `.optional()` and `.meta()` per field.
 */
export const dateTimeInputSchema = z.iso
  .datetime({ offset: true })
  .refine((value) => Date.parse(value) >= EARLIEST_INSTANT_MS, "must be an instant from year 0001 on");

/** Amounts in minor units; bounded to what a JSON number carries exactly. */
export const amountSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const currencySchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be exactly 3 letters")
  .transform((value) => value.toUpperCase())
  .meta({ description: "ISO-4217 style three-letter code; uppercased by the service.", example: "USD" });

export const idempotencyKeyHeaderSchema = z
  .string()
  .min(1)
  .max(128)
  .meta({ description: "Retry-safe creation: the same key and body replay the first response." });

/** A query-string integer: an empty value is absent; anything but digits (and a sign) is refused. */
const queryInteger = (min: number, max: number | undefined, fallback: number, description: string) =>
  z.preprocess(
    (value) => {
      if (value === undefined || value === "") {
        return undefined;
      }
      const text = String(value).trim();

      return /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
    },
    z
      .number({ error: "must be an integer" })
      .int("must be an integer")
      .min(min, `must be ${min} or more`)
      .max(
        max ?? Number.MAX_SAFE_INTEGER,
        max === undefined ? "is too large" : `must be from ${min} to ${max}`,
      )
      .default(fallback)
      .meta({ description }),
  );

/**
 * `limit` (1-100) and `offset` (0 or more, up to `maxOffset` when given) of a paginated list; out
 * of range is 422.
 */
export const pageQuerySchema = (defaultLimit: number, maxOffset?: number) =>
  z.object({
    limit: queryInteger(1, 100, defaultLimit, `1-100, default ${defaultLimit}.`),
    offset:
      maxOffset === undefined
        ? queryInteger(0, undefined, 0, "0 or more, default 0.")
        : queryInteger(0, maxOffset, 0, `0-${maxOffset}, default 0.`),
  });
