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

/**
 * An in-app notification (an inbox row). A chat notice (`conversationId` set) is the one row of a
 * recipient's conversation, updated in place as messages arrive: its `readAt` and `unreadCount`
 * are those of the conversation's read marker, so reading the conversation reads it.
 */
export type Notification = {
  id: string;
  userId: string;
  eventId: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  /** Null while unread; a chat notice's is its conversation's read marker time once read. */
  readAt: Date | null;
  pushedAt: Date | null;
  /** When it was last raised: a chat notice moves to its newest message. */
  createdAt: Date;
  /** The conversation of a chat notice; null for every other notice. */
  conversationId: string | null;
  /** What it adds to the unread count: 1 or 0, or a chat notice's unread messages. */
  unreadCount: number;
};

/** A page of the inbox, newest first; `nextBefore` is the cursor of the next page, null on the last. */
export type NotificationPage = { items: Notification[]; nextBefore: string | null };
