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
