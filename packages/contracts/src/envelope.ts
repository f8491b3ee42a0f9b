import { z } from "zod";
import { errorBodySchema } from "./errors";

/** `meta` of paginated lists. */
export const pageMetaSchema = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

const requestId = z.string().meta({ description: "Echoes a valid incoming X-Request-Id, else a new id." });

/** The success envelope around `data`; `meta` is null unless the route documents a shape. */
export const successEnvelope = <Data extends z.ZodType, Meta extends z.ZodType = z.ZodNull>(
  data: Data,
  meta?: Meta,
) =>
  z.object({
    success: z.literal(true),
    data,
    meta: (meta ?? z.null()) as Meta extends z.ZodNull ? z.ZodNull : Meta,
    error: z.null(),
    request_id: requestId,
  });

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  data: z.null(),
  meta: z.null(),
  error: errorBodySchema,
  request_id: requestId,
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export type SuccessEnvelope<Data, Meta = null> = {
  success: true;
  data: Data;
  meta: Meta;
  error: null;
  request_id: string;
};

/** `{ success: true, data, meta, error: null, request_id }`: every successful answer's body. */
export const successBody = <Data, Meta = null>(
  data: Data,
  meta: Meta,
  requestId: string,
): SuccessEnvelope<Data, Meta> => ({ success: true, data, meta, error: null, request_id: requestId });
