import type { AuditLog } from "../shared/audit";
import type { Page, PageRequest } from "../shared/page";
import type { Announcement, BrowsedProfile, CuratedContent, DatingProfile, Meeting } from "./lifestyle.types";

export interface DatingProfileRepository {
  /** Creates or replaces the user's profile (created_at kept on update). */
  upsert(profile: Omit<DatingProfile, "createdAt" | "updatedAt">, at: Date): Promise<DatingProfile>;
  /**
   * Visible profiles of active users other than `viewerId`, leaving out anyone the viewer blocks
   * or who blocks the viewer; first created first, then by user id (a stable order).
   */
  browse(viewerId: string, page: PageRequest): Promise<Page<BrowsedProfile>>;
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
  create(meeting: Omit<Meeting, "endedAt">): Promise<void>;
  findById(id: string): Promise<Meeting | null>;
  /**
   * The meeting, locked against a concurrent end until the transaction ends (FOR SHARE): joins
   * serialize with an end, so no one joins a meeting that ended meanwhile.
   */
  findByIdForJoin(id: string): Promise<Meeting | null>;
  /** Scheduled or active meetings, soonest first, then by id. */
  listOpen(limit: number): Promise<Meeting[]>;
  /** scheduled → active; false when it was not scheduled. */
  activate(id: string, at: Date): Promise<boolean>;
  /**
   * Ends the meeting, then every participation still active (in the caller's transaction: the
   * meeting's row lock waits for joins in flight, and the second statement sees what they
   * committed). Null when absent; the meeting as it is when it had ended before.
   */
  end(id: string, at: Date): Promise<Meeting | null>;
  /**
   * Records the user's active participation, or returns the one already active (a second join is
   * the same participation): its joined_at.
   */
  join(participation: { id: string; meetingId: string; userId: string; at: Date }): Promise<Date>;
  /** Ends the user's active participation; false when there was none. */
  leave(meetingId: string, userId: string, at: Date): Promise<boolean>;
}

export type LifestyleRepositories = {
  datingProfiles: DatingProfileRepository;
  curatedContent: CuratedContentRepository;
  announcements: AnnouncementRepository;
  meetings: MeetingRepository;
  audit: AuditLog;
};

/** Issues a video service's participant credentials (a LiveKit access token). */
export interface VideoTokenIssuer {
  /** The service's address (`wss://…`) the client connects to with the token. */
  readonly url: string;
  /** A token for `identity` in `room`, valid `ttlSeconds`; `admin` adds room administration. */
  issue(grant: { identity: string; room: string; admin: boolean; ttlSeconds: number }): Promise<string>;
}
