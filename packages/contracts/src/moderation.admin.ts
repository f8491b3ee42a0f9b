import { z } from "zod";
import { idParamSchema, pageQuerySchema, timestampSchema } from "./common";
import { pageMetaSchema } from "./envelope";
import { defineOperations } from "./operation";

export const filterMatchSchema = z.enum(["word", "phrase", "domain"]).meta({
  description:
    "`word`: one word, matched as a whole token; `phrase`: 2-8 words, matched as consecutive tokens; " +
    "`domain`: a host name (`example.com`), matching it and its subdomains in links and bare host names.",
});
export const filterActionSchema = z.enum(["block", "hold", "flag"]).meta({
  description:
    "`block`: the write is refused (422 content_blocked); `hold`: it is saved visible to its author only " +
    "until a moderator approves it (names in `profiles` are refused instead); `flag`: it is published " +
    "and reported to moderators.",
});
export const filterContextSchema = z.enum([
  "moments",
  "comments",
  "messages",
  "profiles",
  "dating_profiles",
  "listings",
]);

const contextsSchema = z
  .array(filterContextSchema)
  .min(1)
  .max(6)
  .refine((contexts) => new Set(contexts).size === contexts.length, { message: "must not repeat a context" })
  .meta({
    description:
      "Where it applies: `moments`, `comments`, `messages`, `profiles` (usernames and display names), " +
      "`dating_profiles` (bio and interests), `listings` (listings' and menu items' names and descriptions).",
  });

const valueSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .meta({
    description:
      "1-100 characters. Matched after normalization (case, accents and common substitutions such as " +
      "`4` for `a`); never a regular expression.",
  });

export const contentFilterSchema = z
  .object({
    id: z.string(),
    match: filterMatchSchema,
    value: z.string().meta({ description: "As given." }),
    normalized_value: z.string().meta({ description: "What the matcher compares." }),
    action: filterActionSchema,
    contexts: z.array(filterContextSchema),
    hits: z.number().int().min(0).meta({ description: "How many writes it matched." }),
    last_hit_at: timestampSchema.nullable(),
    created_by: z.string().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({
    id: "ContentFilter",
    example: {
      id: "0193a5e0-7c1e-7c3a-9b1e-5d2f3a4b5c6d",
      match: "word",
      value: "scam",
      normalized_value: "scam",
      action: "block",
      contexts: ["moments", "comments"],
      hits: 3,
      last_hit_at: "2026-12-12T10:00:00.000Z",
      created_by: "0193a5e0-7c1e-7c3a-9b1e-5d2f3a4b5c6e",
      created_at: "2026-12-12T09:00:00.000Z",
      updated_at: "2026-12-12T09:00:00.000Z",
    },
  });
export type ContentFilterDto = z.infer<typeof contentFilterSchema>;

export const createContentFilterRequestSchema = z
  .object({
    match: filterMatchSchema,
    value: valueSchema,
    action: filterActionSchema,
    contexts: contextsSchema,
  })
  .meta({
    id: "CreateContentFilterRequest",
    example: { match: "word", value: "scam", action: "block", contexts: ["moments", "comments"] },
  });

export const updateContentFilterRequestSchema = z
  .object({
    match: filterMatchSchema.optional(),
    value: valueSchema.optional(),
    action: filterActionSchema.optional(),
    contexts: contextsSchema.optional(),
  })
  .meta({
    id: "UpdateContentFilterRequest",
    description: "The fields given change; the value is checked again against the match.",
    example: { action: "hold" },
  });

export const contentFilterDeletedSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: "ContentFilterDeleted" });

const tags = ["Administration"];

/** The content filters (docs/safety.md, "Filters"). */
export const moderationAdminOperations = defineOperations({
  adminFiltersList: {
    method: "GET",
    path: "/api/v1/admin/filters",
    auth: "bearer",
    tags,
    summary: "The content filter rules",
    query: pageQuerySchema(50),
    responses: {
      200: {
        description: "A page of rules, oldest first.",
        data: z.array(contentFilterSchema),
        meta: pageMetaSchema,
      },
    },
    errors: ["unauthorized", "forbidden", "validation_failed"],
  },
  adminFiltersCreate: {
    method: "POST",
    path: "/api/v1/admin/filters",
    auth: "bearer",
    tags,
    summary: "Add a content filter rule",
    idempotencyKey: "optional",
    body: createContentFilterRequestSchema,
    responses: { 201: { description: "Created.", data: contentFilterSchema } },
    errors: ["unauthorized", "forbidden", "validation_failed", "conflict"],
  },
  adminFiltersUpdate: {
    method: "PATCH",
    path: "/api/v1/admin/filters/{id}",
    auth: "bearer",
    tags,
    summary: "Change a content filter rule",
    params: idParamSchema,
    body: updateContentFilterRequestSchema,
    responses: { 200: { description: "The rule.", data: contentFilterSchema } },
    errors: ["unauthorized", "forbidden", "not_found", "validation_failed", "conflict"],
  },
  adminFiltersDelete: {
    method: "DELETE",
    path: "/api/v1/admin/filters/{id}",
    auth: "bearer",
    tags,
    summary: "Delete a content filter rule",
    params: idParamSchema,
    responses: { 200: { description: "Deleted.", data: contentFilterDeletedSchema } },
    errors: ["unauthorized", "forbidden", "not_found"],
  },
});
