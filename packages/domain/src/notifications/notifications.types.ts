export const devicePlatforms = ["ios", "android", "web"] as const;
export type DevicePlatform = (typeof devicePlatforms)[number];

/** A push registration; a token belongs to one user at a time. */
export type Device = {
  id: string;
  userId: string;
  token: string;
  platform: DevicePlatform;
  createdAt: Date;
  updatedAt: Date;
};

/** An in-app notification (an inbox row). */
export type Notification = {
  id: string;
  userId: string;
  eventId: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  readAt: Date | null;
  pushedAt: Date | null;
  createdAt: Date;
};
