import type {
  AnnouncementDto,
  BrowsedProfileDto,
  CuratedContentDto,
  DatingProfileDto,
  MeetingDto,
  MeetingParticipantDto,
} from "@agora/contracts/lifestyle";
import type {
  Announcement,
  BrowsedProfile,
  CuratedContent,
  DatingProfile,
  Meeting,
  MeetingParticipant,
} from "@agora/domain/lifestyle/lifestyle.types";

export const toDatingProfileDto = (profile: DatingProfile): Omit<DatingProfileDto, "media"> => ({
  user_id: profile.userId,
  visible: profile.visible,
  bio: profile.bio,
  interests: profile.interests,
  birth_year: profile.birthYear,
  created_at: profile.createdAt.toISOString(),
  updated_at: profile.updatedAt.toISOString(),
});

export const toBrowsedProfileDto = (profile: BrowsedProfile): Omit<BrowsedProfileDto, "media"> => ({
  user_id: profile.userId,
  display_name: profile.displayName,
  bio: profile.bio,
  interests: profile.interests,
  birth_year: profile.birthYear,
});

export const toCuratedContentDto = (item: CuratedContent): CuratedContentDto => ({
  id: item.id,
  title: item.title,
  body: item.body,
  published_at: item.publishedAt.toISOString(),
});

export const toAnnouncementDto = (announcement: Announcement): AnnouncementDto => ({
  id: announcement.id,
  title: announcement.title,
  body: announcement.body,
  published: announcement.published,
  published_at: announcement.publishedAt?.toISOString() ?? null,
  created_at: announcement.createdAt.toISOString(),
});

export const toMeetingDto = (meeting: Meeting): MeetingDto => ({
  id: meeting.id,
  host_id: meeting.hostId,
  title: meeting.title,
  starts_at: meeting.startsAt.toISOString(),
  status: meeting.status,
  visibility: meeting.visibility,
  invitee_ids: meeting.inviteeIds,
});

export const toParticipantDto = (participant: MeetingParticipant): MeetingParticipantDto => ({
  meeting_id: participant.meetingId,
  user_id: participant.userId,
  joined_at: participant.joinedAt.toISOString(),
  video_url: participant.videoUrl,
  participant_token: participant.participantToken,
});
