import type { reportsOperations } from "@agora/contracts/reports";
import type { reportsAdminOperations } from "@agora/contracts/reports.admin";
import type { DescriptionsOf } from "../../http/operations";

/** The reports operations' OpenAPI descriptions, by operationId (docs/safety.md, "Reports"). */
export const reportsDescriptions = {
  reportsCreate:
    "Reports what the caller can see, with a `category` and an optional `note` (up to 2000 characters); the " +
    "report keeps a snapshot of the target as it is now. Who can report what: a moment by the moment rule " +
    "(404, or 403 across a block as its routes answer); a comment visible on a visible moment (no block either " +
    "way); a message of a conversation the caller is in; a user not deleted who has not blocked the caller; a " +
    "dating profile the caller could browse; a listing the public sees; a meeting the caller may know of (open, " +
    "hosted, invited) or joined, its host not blocked either way. Anything else is 404 `not_found`. Yourself or " +
    "your own content is 422 `validation_failed` on `target_id`. A reporter has one open report (`open` or " +
    "`reviewing`) per target: reporting again answers 200 with it and files nothing; a new report is 201. The " +
    "moment route `POST /api/v1/community/moments/{id}/report` files into the same queue.",
  adminTargetReportsList:
    "Reports on every target, oldest first, filtered by `status`, `target_type` and `category`; `meta` carries " +
    "`{ limit, offset, total }`. With `group_by=target`: one entry per target with undecided reports (`open` or " +
    "`reviewing`, of `target_type` and `category` when given), ordered by its oldest one, with `open_reports`, " +
    "the count per category and the target now (`deleted: true` when it is gone); `total` counts targets.",
  adminReportTargetView:
    "The target as it is now (`deleted: true`, `current: null` when gone), every report on it with its snapshot, " +
    "a moment's or comment's earlier texts (`edits`), and for a message that message with at most 5 before and 5 " +
    "after it in its conversation (`messages`), nothing more. 404 when the target has no report.",
  adminReportTargetDecide:
    "Applies `action` and closes every report on the target still `open` or `reviewing`, in one transaction: " +
    "each `resolved` (`dismissed` for `dismiss`) with `decision` set, audited, and each reporter told once by " +
    "an inbox notification (a filter's report tells nobody). Actions per target type: moment hide | delete | " +
    "warn | suspend | dismiss | approve; comment and message delete | warn | suspend | dismiss | approve; user " +
    "warn | suspend | dismiss; dating_profile hide | delete | warn | suspend | dismiss | approve; listing hide | " +
    "warn | suspend | dismiss | approve; meeting delete (ends it) | warn | suspend | dismiss. Another action is " +
    "422 `validation_failed` on `action`. `hide`: a moment hidden from all but its author, a dating profile made " +
    "invisible, a listing suspended. `delete`: a moment or comment deleted (its media to the orphan purge), a " +
    "message's text replaced by `[removed by a moderator]` and its media dropped (the conversation keeps its " +
    "sequence), a dating profile deleted, a meeting ended. `warn`: the owner gets one notice naming the target " +
    "type and categories. `suspend`: the owner is suspended as the moment route does (409 `last_admin` for the " +
    "last active administrator, and nothing is kept). `approve`, and `dismiss` too, release content a filter " +
    "held (visible to everyone again; a held message is delivered then). Decisions " +
    "on one target run one at a time: with no open report left it is 422 `invalid_transition` and nothing is " +
    "applied; a target never reported is 404 `not_found`.",
} satisfies DescriptionsOf<typeof reportsOperations & typeof reportsAdminOperations>;
