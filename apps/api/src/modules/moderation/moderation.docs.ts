import type { moderationAdminOperations } from "@agora/contracts/moderation.admin";
import type { DescriptionsOf } from "../../http/operations";

const applies =
  "Applies at once in the API process that answered and within about a second in the others " +
  '(docs/safety.md, "Filters"). Audited. Administrators only.';

/** The content filters' OpenAPI descriptions, by operationId. */
export const moderationDescriptions = {
  adminFiltersList:
    "Every rule, oldest first, with `hits` (the writes it matched, blocked, held or flagged) and " +
    "`last_hit_at`. Administrators only.",
  adminFiltersCreate:
    "A rule acts on what members write in its `contexts` before anyone else sees it. Matching normalizes " +
    "case, accents (Unicode NFKD, marks dropped) and common substitutions (`0`→o, `1`→i, `3`→e, `4`→a, " +
    "`5`→s, `7`→t, `8`→b, `@`→a, `$`→s, `!`→i, `|`→l); it uses no regular expression of the rule. A " +
    "`word` is one token, a `phrase` 2-8 tokens (422 on `value` otherwise), a `domain` a host name " +
    "matching its subdomains. 409 `conflict` when a rule with the same match and normalized value exists. " +
    applies,
  adminFiltersUpdate:
    "Changes the fields given; the value is checked against the (new) match as on create. 409 `conflict` " +
    `as on create. Hits are kept. ${applies}`,
  adminFiltersDelete:
    "The rule stops acting; the reports it filed stay, and records it held stay held until a moderator " +
    `decides. ${applies}`,
} satisfies DescriptionsOf<typeof moderationAdminOperations>;
