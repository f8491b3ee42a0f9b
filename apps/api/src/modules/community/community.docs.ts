import type { communityOperations } from "@agora/contracts/community";
import type { communityAdminOperations } from "@agora/contracts/community.admin";
import { FEED_PAGE_SIZE } from "@agora/domain/community/community.types";
import type { DescriptionsOf } from "../../http/operations";

const blockEffects =
  "A block applies both ways, on every surface: neither user sees the other's moments or comments in " +
  "feeds and lists, and neither can start a conversation with the other or send a message (403).";

/** What every route under /moments/{id} answers for a moment the caller may not see. */
const momentAccess =
  "404 when the moment does not exist, was hidden by moderation, or its author's account is suspended or " +
  "deleted (its author still sees it); 403 when the caller and its author block each other (either way).";

/** The community operations' OpenAPI descriptions, by operationId. */
export const communityDescriptions = {
  communityFeed:
    `The ${FEED_PAGE_SIZE} newest public moments the caller may see, newest first: moments of users the caller ` +
    "blocks or is blocked by are left out, and so are moments hidden by moderation (except the caller's own, " +
    "marked `hidden`) and moments of suspended or deleted accounts (back on reactivation; nothing is deleted). Each carries its counters and whether the caller likes it. Page back with `before` = " +
    "`meta.next_before` (the last moment's id); a `before` that names no moment gives an empty page.",
  momentsCreate:
    "Text (`body`, up to 2000 characters), media or both; neither is 422. `media_asset_ids`: up to 5 of the " +
    "caller's own assets uploaded for `moment` (`POST /api/v1/media/upload`), not attached elsewhere; each " +
    "upload is confirmed with the object store first (422 when the bytes are not there as declared, 503 " +
    "`storage_unavailable` when the store does not answer); the moment is published at once, and its assets " +
    "are processed afterwards (bytes checked, metadata stripped): `GET /api/v1/media/{id}` answers them " +
    "`processing`, without a URL, until `ready`; bytes already `rejected` are 422, and bytes rejected later " +
    "leave the moment for everyone but its author. Attaching makes the assets public.",
  momentsLike: `Idempotent: liking again (or twice at once) keeps one like and answers 200 both times, with the counters. ${momentAccess}`,
  momentsView: `A view counts once per user (the author's own included); 200 every time, with the counters. ${momentAccess}`,
  momentsCounters:
    "`{ likes, views, comments }`, kept by the server in the same transaction as each like, view and comment. " +
    momentAccess,
  momentCommentsList:
    "Newest first, `limit` at a time (1-100, default 50; anything else is 422); page back with `before` = " +
    "`meta.next_before`. Comments of users the caller blocks or is blocked by are left out, and so are " +
    "comments of suspended or deleted accounts (the moment's `comments` counter still counts them). " +
    momentAccess,
  momentCommentsCreate: `\`body\`: 1 to 2000 characters (trimmed). The moment's comment counter moves with it. ${momentAccess}`,
  momentsReport:
    "`reason`: spam, abuse, illegal or other; `note` up to 2000 characters. 201 with the new report (status " +
    "`open`). A reporter has one open report per moment: while theirs is `open` or `reviewing`, reporting " +
    "again files nothing and answers 200 with that report as it is; once it is `resolved` or `dismissed`, a " +
    `new report can be filed. ${momentAccess}`,
  usersBlock: `${blockEffects} Idempotent: 200 every time. Yourself is 422; an unknown or deleted user is 404.`,
  usersUnblock: "Idempotent: 200 whether or not the user was blocked. Yourself is 422; an unknown user 404.",
  adminReportsList:
    "Reports oldest first, optionally of one `status` (`open`, `reviewing`, `resolved`, `dismissed`), with the " +
    "reported moment's author and whether it is hidden. `meta` carries `{ limit, offset, total }`. With " +
    "`group_by=moment` the queue is one entry per moment: its oldest undecided report (`open` or `reviewing`, or " +
    "of `status` when given) with `moment_open_reports`, how many such reports the moment has, oldest first; " +
    "`total` counts the moments. Deciding that report with `hide_moment` or `suspend_user` closes them all.",
  adminReportsModerate:
    "Applies `action` and closes the report in one transaction, audited: `hide_moment` hides the moment from " +
    "everyone but its author, `restore_moment` shows it again, `suspend_user` suspends the moment's author (every " +
    "session revoked), `none` changes nothing. The report becomes `resolved` (`dismissed` for `none`) and its " +
    "reporter gets an inbox notification of the outcome. `hide_moment` and `suspend_user` settle the moment: " +
    "every other report on it still `open` or `reviewing` is closed the same way in the same transaction, each " +
    "audited and each reporter notified once (`restore_moment` and `none` decide this report alone). Decisions " +
    "on reports of one moment run one at a time, so of two moderators deciding two of its reports at once the " +
    "second finds its report closed. A report already resolved or dismissed is 422 `invalid_transition`; an " +
    "unknown one 404. `suspend_user` on a moment of the last active administrator is 409 `last_admin` and " +
    "nothing is kept (the report stays open).",
  adminReportsStatusUpdate:
    "The moves: `open` → `reviewing` | `dismissed`; `reviewing` → `open` | `resolved` | `dismissed`; " +
    "`resolved` and `dismissed` are final. Any other move is 422 `invalid_transition`, an unknown status 422 " +
    "`validation_failed`. Audited; closing a report tells its reporter.",
} satisfies DescriptionsOf<typeof communityOperations & typeof communityAdminOperations>;
