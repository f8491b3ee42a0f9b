import { z } from "zod";

export const idParamSchema = z.object({ id: z.string().meta({ description: "Resource id." }) });

export const timestampSchema = z.iso
  .datetime({ offset: true })
  .meta({ description: "RFC 3339 timestamp, UTC." });

/** Amounts in minor units; bounded to what a JSON number carries exactly. */
export const amountSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const currencySchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be exactly 3 letters")
  .transform((value) => value.toUpperCase())
  .meta({ description: "ISO-4217 style three-letter code; uppercased by the service.", example: "USD" });
