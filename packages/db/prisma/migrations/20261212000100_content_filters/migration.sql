-- Content filters (docs/safety.md, "Filters"): administrators' rules that act on what members write
-- before anyone else sees it. A new table only.
--   match             word | phrase | domain
--   value             as the administrator gave it
--   normalized_value  what the matcher compares: the value normalized (case, accents, common letter
--                     substitutions; tokens joined by one space; a domain lowercased, without a
--                     leading `www.` or a trailing dot). One rule per match and normalized value.
--   action            block | hold | flag
--   contexts          where it applies: moments | comments | messages | profiles |
--                     dating_profiles | listings (at least one, each once)
--   hits, last_hit_at how many writes it matched, and the last one
--   created_by        the administrator who created it (null: an operator); no foreign key, the
--                     audit log keeps who changed what
CREATE TABLE "content_filters" (
  "id" UUID NOT NULL,
  "match" TEXT NOT NULL,
  "value" TEXT NOT NULL,
  "normalized_value" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "contexts" TEXT[] NOT NULL,
  "hits" BIGINT NOT NULL DEFAULT 0,
  "last_hit_at" TIMESTAMPTZ(6),
  "created_by" UUID,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "content_filters_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "content_filters_match_check" CHECK ("match" IN ('word', 'phrase', 'domain')),
  CONSTRAINT "content_filters_action_check" CHECK ("action" IN ('block', 'hold', 'flag')),
  CONSTRAINT "content_filters_value_check" CHECK (char_length("value") BETWEEN 1 AND 100),
  CONSTRAINT "content_filters_normalized_value_check"
    CHECK (char_length("normalized_value") BETWEEN 1 AND 400),
  CONSTRAINT "content_filters_contexts_check"
    CHECK (cardinality("contexts") BETWEEN 1 AND 6
           AND "contexts" <@ ARRAY['moments', 'comments', 'messages', 'profiles', 'dating_profiles',
                                   'listings']::TEXT[]),
  CONSTRAINT "content_filters_hits_check" CHECK ("hits" >= 0)
);
CREATE UNIQUE INDEX "content_filters_match_normalized_value_key"
  ON "content_filters" ("match", "normalized_value");
-- The administrators' list, newest first.
CREATE INDEX "content_filters_created_at_id_idx" ON "content_filters" ("created_at", "id");
