import type { lifestyleOperations } from "@agora/contracts/lifestyle";
import type { lifestyleAdminOperations } from "@agora/contracts/lifestyle.admin";
import type { DescriptionsOf } from "../../http/operations";
import { recordMediaRule } from "../media/media.docs";

/** The lifestyle operations' OpenAPI descriptions, by operationId. */
export const lifestyleDescriptions = {
  datingProfilePut:
    "Replaces the whole profile (fields left out take their defaults). `visible: false` takes it out of browse. " +
    "`media_asset_ids`: the photos, up to 6 of the caller's own assets uploaded for `dating_photo`, each " +
    `once, in order, ${recordMediaRule}; ` +
    "the list replaces the photos (photos dropped are deleted later by " +
    "the orphan purge), and leaving it out keeps them. The answer carries the photos as `media`. Others read " +
    "them exactly while they may browse the profile (visible, account active, no block either way; " +
    "`GET /api/v1/media/{id}` is 403 otherwise).",
  datingBrowse:
    "Other members whose profile is `visible`, never the caller; anyone the caller blocks or who blocks the " +
    "caller is left out, as are suspended and deleted accounts. The order is stable: the profile created " +
    "first comes first, then by user id. `meta` carries `{ limit, offset, total }`. Each profile carries " +
    "its photos as `media`, in order (read for the whole page in one statement).",
  curatedContentList: "Newest first; `meta` carries `{ limit, offset, total }`.",
  announcementsList: "Newest first; `meta` carries `{ limit, offset, total }`.",
  meetingsList:
    "Meetings that are `scheduled` or `active` and that the caller may see, soonest first (then by id), at " +
    "most 50: every open meeting, and the private ones the caller hosts or is invited to (no one else ever " +
    "sees a private meeting listed). Meetings of a host who blocks the caller, or whom the caller blocks, are " +
    "left out. `meta.next_after` (the page's last meeting, or null on the last page) pages on with `after`: " +
    "each page continues from that meeting's start and id, so meetings created or ended meanwhile never make " +
    "a page repeat or skip one; an `after` that names no meeting gives an empty page.",
  meetingsCreate:
    "The caller is the host. It starts `scheduled` and becomes `active` when the host first joins. With " +
    "`invitee_ids` the meeting is `private`: only the host and the invitees see it listed and may join it; " +
    "anyone else is answered 404 on every meeting route. Without, it is `open` to every member. An invitee " +
    "that cannot be invited (no such active account, the host, named twice, or a block between them and " +
    "the host either way) makes the request 422 `validation_failed` with one detail per entry, and nothing " +
    "is created.",
  meetingsJoin:
    "Records the caller's participation (joining again is the same participation) and answers the video " +
    "service's address with a participant token: a LiveKit access token for this room and the caller's " +
    "identity only, with room administration for the host only. The token lives 10 minutes and never " +
    "outlives the meeting: a meeting has no scheduled end, its end is the host's `end`, and no token is " +
    "issued once that has happened (a join and a concurrent end are serialized, and the token is signed " +
    "before the join commits); `end` then deletes the room, disconnecting everyone. The host's first join " +
    "makes the meeting `active`. 404 unknown meeting, or a private one the caller neither hosts nor is " +
    "invited to; 403 `forbidden` when the caller and the host block each other (either way); 422 " +
    "`meeting_ended`; 503 `video_unavailable` when no video service is configured (nothing is recorded then).",
  meetingsLeave:
    "Ends the caller's active participation; 404 when there is none (a private meeting the caller may not " +
    "see has none). With a video service configured, the caller is then removed from the room by the " +
    "outbox worker (LiveKit `RemoveParticipant`, retried with backoff and dead-lettered after ten " +
    "failures), unless they have joined again by then; the answer does not wait for it.",
  meetingsEnd:
    "The meeting becomes `ended` and every active participation ends with it; it leaves the list and joins " +
    "are 422 `meeting_ended`. With a video service configured, the room is then deleted by the outbox " +
    "worker (LiveKit `DeleteRoom`, which disconnects everyone; retried with backoff and dead-lettered after " +
    "ten failures); the answer does not wait for it. Anyone else who may see the meeting: 403; unknown, or " +
    "a private meeting the caller neither hosts nor is invited to: 404. Ending an ended meeting answers it " +
    "unchanged.",
  adminAnnouncementsCreate:
    "Published at once unless `published: false` (kept as a draft, not listed). Audited. Administrators only.",
} satisfies DescriptionsOf<typeof lifestyleOperations & typeof lifestyleAdminOperations>;
