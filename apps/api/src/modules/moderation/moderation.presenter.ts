import type { ContentFilterDto } from "@agora/contracts/moderation.admin";
import type { ContentFilterRecord } from "@agora/domain/moderation/content-filter.ports";

export const toContentFilterDto = (rule: ContentFilterRecord): ContentFilterDto => ({
  id: rule.id,
  match: rule.match,
  value: rule.value,
  normalized_value: rule.normalizedValue,
  action: rule.action,
  contexts: [...rule.contexts],
  hits: rule.hits,
  last_hit_at: rule.lastHitAt?.toISOString() ?? null,
  created_by: rule.createdBy,
  created_at: rule.createdAt.toISOString(),
  updated_at: rule.updatedAt.toISOString(),
});
