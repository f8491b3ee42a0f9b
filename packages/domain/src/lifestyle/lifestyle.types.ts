import type { UserStatus } from "../identity/identity.types";

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

/** `open`: every member sees and may join it; `private`: its host and invitees only. */
export const meetingVisibilities = ["open", "private"] as const;
export type MeetingVisibility = (typeof meetingVisibilities)[number];

export type Meeting = {
  id: string;
  hostId: string;
  title: string;
  startsAt: Date;
  status: MeetingStatus;
  visibility: MeetingVisibility;
  /** The users invited to a private meeting (fixed at creation), by id; empty for an open one. */
  inviteeIds: string[];
  endedAt: Date | null;
  createdAt: Date;
};

/** What the invitee check needs to know of a user named as an invitee (facts; the policy decides). */
export type InviteeCandidate = {
  userId: string;
  status: UserStatus;
  /** Whether the user and the host block each other, either way. */
  blockedEitherWay: boolean;
};

/** What a join answers (`MeetingParticipant` in the OpenAPI document). */
export type MeetingParticipant = {
  meetingId: string;
  userId: string;
  joinedAt: Date;
  videoUrl: string;
  participantToken: string;
};
