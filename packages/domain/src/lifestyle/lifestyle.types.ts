export type DatingProfile = {
  userId: string;
  visible: boolean;
  bio: string;
  interests: string[];
  birthYear: number | null;
  createdAt: Date;
  updatedAt: Date;
};

/** A profile as browse shows it: with the member's display name. */
export type BrowsedProfile = Pick<DatingProfile, "userId" | "bio" | "interests" | "birthYear"> & {
  displayName: string;
};

export type CuratedContent = { id: string; title: string; body: string; publishedAt: Date };

export type Announcement = {
  id: string;
  title: string;
  body: string;
  published: boolean;
  publishedAt: Date | null;
  createdBy: string;
  createdAt: Date;
};

export const meetingStatuses = ["scheduled", "active", "ended"] as const;
export type MeetingStatus = (typeof meetingStatuses)[number];

export type Meeting = {
  id: string;
  hostId: string;
  title: string;
  startsAt: Date;
  status: MeetingStatus;
  endedAt: Date | null;
  createdAt: Date;
};

/** What a join answers (SPEC, "Meeting participant (join response)"). */
export type MeetingParticipant = {
  meetingId: string;
  userId: string;
  joinedAt: Date;
  videoUrl: string;
  participantToken: string;
};
