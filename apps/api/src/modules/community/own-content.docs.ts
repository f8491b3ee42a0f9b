import type { communityOperations } from "@agora/contracts/community";
import type { DescriptionsOf } from "../../http/operations";

/** Who may change a moment or comment they can see, and what the rest see (docs/safety.md, "Your own content"). */
const ownOnly =
  "404 when the caller cannot see it (absent, deleted, hidden by moderation or of a suspended or deleted " +
  "account, unless it is theirs); 403 `forbidden` when they see it but it is not theirs, or when the caller " +
  "and its author block each other.";

const muteEffects =
  "A mute is the caller's own filter: the muted user's moments and comments leave the caller's feed and " +
  "comment lists (a moment opened by its id still answers), and their chat messages still arrive but give " +
  "the caller no notification or push. The muted user is not told and sees the caller as before.";

/** The OpenAPI descriptions of an author's own changes and of mutes, by operationId. */
export const ownContentDescriptions = {
  momentsEdit:
    "The author replaces the moment's text (`body`, up to 2000 characters; blank removes it, allowed only on a " +
    "moment with media, else 422). Sets `edited_at`; the earlier text is kept for moderators only (the report " +
    "view), never shown to others. The same text again changes nothing. A moment hidden by moderation may be " +
    "edited and stays hidden. Edits of one moment run one after another. The new text passes the content " +
    "filters as a new moment's does: 422 `content_blocked`, or held for a moderator (an edit never releases a " +
    `hold), or published and flagged. ${ownOnly}`,
  momentsDelete:
    "The author deletes the moment (hidden by moderation or not): 200 `{ id, deleted: true }`. Others stop " +
    "seeing it at once; its comments, likes and views go with it, its media become private and are purged, " +
    "and reports filed on it stay readable to moderators. Deleting it again is 404 (it no longer exists). " +
    ownOnly,
  momentsUnlike:
    "Takes the caller's like back; 200 with the counters, also when the caller did not like it (the counters " +
    "unchanged). Likes and unlikes at once keep `likes` equal to the likes there are. 404 when the moment does " +
    "not exist or is hidden from the caller; 403 across a block.",
  commentsEdit:
    "The comment's author replaces its text (`body`, 1 to 2000 characters, trimmed). Sets `edited_at`; the " +
    "earlier text is kept for moderators only. The new text passes the content filters as a new comment's " +
    "does (422 `content_blocked`, held, or flagged). 404 when the caller cannot see the comment or its " +
    "moment; 403 `forbidden` when they see it but did not write it, or across a block with the moment's author.",
  commentsDelete:
    "Its author, or the author of the moment it is under, deletes the comment: 200 `{ id, deleted: true }`; " +
    "the moment's `comments` counter goes down once in the same transaction (of two deletions at once, the " +
    "second is 404), and deleting it again is 404. 404 when the caller cannot see the comment or its moment; " +
    "403 `forbidden` when they see it but it is neither theirs nor under their moment.",
  usersMute: `${muteEffects} Idempotent: 200 every time. Yourself is 422; an unknown or deleted user is 404.`,
  usersUnmute:
    "Idempotent: 200 whether or not the user was muted. Yourself is 422; an unknown or deleted user 404.",
  mutesList:
    "The users the caller mutes, newest mute first (deleted accounts left out); `meta` carries " +
    "`{ limit, offset, total }`.",
} satisfies DescriptionsOf<typeof communityOperations>;
