import type { AuditLog } from "../common/audit";
import type { Page, PageRequest } from "../common/page";
import type { BlockRepository } from "../community/community.ports";
import type { MediaAssetRepository } from "../media/media.ports";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type {
  Announcement,
  BrowsedProfile,
  CuratedContent,
  DatingProfile,
  InviteeCandidate,
  Meeting,
} from "./lifestyle.types";

export interface DatingProfileRepository {
  /**
   * Creates or replaces the user's profile (created_at kept on update). `hold`: a content filter
   * holds it (held_at set, out of browse until a moderator approves it); without, held_at stays.
   */
  upsert(
    profile: Omit<DatingProfile, "createdAt" | "updatedAt">,
    at: Date,
    hold?: boolean,
  ): Promise<DatingProfile>;
  /**
   * Visible profiles of active users other than `viewerId`, leaving out anyone the viewer blocks
   * or who blocks the viewer; first created first, then by user id (a stable order).
   */
  browse(viewerId: string, page: PageRequest): Promise<Page<BrowsedProfile>>;
  /** Deletes the user's profile, if any (account deletion). */
  deleteForUser(userId: string): Promise<void>;
}

export interface CuratedContentRepository {
  create(item: CuratedContent, at: Date): Promise<void>;
  /** Published items, newest first. */
  list(page: PageRequest): Promise<Page<CuratedContent>>;
}

export interface AnnouncementRepository {
  create(announcement: Announcement): Promise<void>;
  /** Published announcements, newest first. */
  listPublished(page: PageRequest): Promise<Page<Announcement>>;
}

export interface MeetingRepository {
  /** Inserts the meeting and, for a private one, its invitees. */
  create(meeting: Omit<Meeting, "endedAt">): Promise<void>;
  /** The meeting with its invitees; null when absent (or the id is malformed). */
  findById(id: string): Promise<Meeting | null>;
  /**
   * The meeting, locked against a concurrent end until the transaction ends (FOR SHARE): joins
   * serialize with an end, so no one joins a meeting that ended meanwhile.
   */
  findByIdForJoin(id: string): Promise<Meeting | null>;
  /**
   * Scheduled or active meetings `viewerId` may see (open ones, and private ones they host or are
   * invited to), leaving out those of a host who blocks the viewer or whom the viewer blocks;
   * soonest first, then by id; after the meeting `after` (its start and id) when given, so a new
   * meeting or one that ends changes nothing of the pages after it. An `after` that names no
   * meeting gives an empty page.
   */
  listOpenFor(viewerId: string, page: { after: string | undefined; limit: number }): Promise<Meeting[]>;
  /**
   * The users among `userIds` that exist, with their status and whether they and `hostId` block
   * each other either way (malformed and unknown ids are left out).
   */
  findInviteeCandidates(hostId: string, userIds: readonly string[]): Promise<InviteeCandidate[]>;
  /** scheduled → active; false when it was not scheduled. */
  activate(id: string, at: Date): Promise<boolean>;
  /**
   * Ends the meeting, then every participation still active (in the caller's transaction: the
   * meeting's row lock waits for joins in flight, and the second statement sees what they
   * committed). Null when absent; `ended` is false (and the meeting as it is) when it had ended
   * before, so of two concurrent ends exactly one reports it.
   */
  end(id: string, at: Date): Promise<{ meeting: Meeting; ended: boolean } | null>;
  /**
   * Records the user's active participation, or returns the one already active (a second join is
   * the same participation): its joined_at.
   */
  join(participation: { id: string; meetingId: string; userId: string; at: Date }): Promise<Date>;
  /** Ends the user's active participation; false when there was none. */
  leave(meetingId: string, userId: string, at: Date): Promise<boolean>;
  /** Whether the user has an active participation in the meeting (joined and not left). */
  isParticipating(meetingId: string, userId: string): Promise<boolean>;
}

export type LifestyleRepositories = {
  datingProfiles: DatingProfileRepository;
  curatedContent: CuratedContentRepository;
  announcements: AnnouncementRepository;
  meetings: MeetingRepository;
  blocks: Pick<BlockRepository, "isBlockedEitherWay">;
  outbox: OutboxWriter;
  audit: AuditLog;
  /** A dating profile's photos; confirming an upload queues its processing in the outbox. */
  media: MediaAssetRepository;
};

/** Issues a video service's participant credentials (a LiveKit access token). */
export interface VideoTokenIssuer {
  /** The service's address (`wss://…`) the client connects to with the token. */
  readonly url: string;
  /** A token for `identity` in `room`, valid `ttlSeconds`; `admin` adds room administration. */
  issue(grant: { identity: string; room: string; admin: boolean; ttlSeconds: number }): Promise<string>;
}

/**
 * Manages rooms on the video service (LiveKit's RoomService); the outbox worker calls it. A room
 * is named by its meeting's id. Each call is bounded by VIDEO_TIMEOUT_MS and rejects when the
 * service fails or does not answer in time (the outbox then retries it); a room or participant
 * that is already gone counts as done.
 */
export interface VideoRooms {
  /** Deletes the room, which disconnects everyone in it. */
  deleteRoom(room: string): Promise<void>;
  /** Disconnects the participant `identity` (a user id) from the room. */
  removeParticipant(room: string, identity: string): Promise<void>;
}
