import type { Actor } from "../common/actor";
import { requireRole } from "../identity/identity.policy";
import type { LifestyleDeps } from "./lifestyle.deps";
import type { Announcement } from "./lifestyle.types";

/** An administrator's announcement, published at once unless `published: false`; audited. */
export const createAnnouncement = async (
  { uow, clock, ids }: Pick<LifestyleDeps, "uow" | "clock" | "ids">,
  actor: Actor,
  input: { title: string; body: string; published: boolean },
): Promise<Announcement> => {
  requireRole(actor, "admin");
  const now = clock.now();
  const announcement: Announcement = {
    id: ids.next(),
    title: input.title,
    body: input.body,
    published: input.published,
    publishedAt: input.published ? now : null,
    createdBy: actor.userId,
    createdAt: now,
  };

  return uow.run(async (tx) => {
    await tx.announcements.create(announcement);
    await tx.audit.record(
      {
        actor,
        action: "announcement.created",
        targetType: "announcement",
        targetId: announcement.id,
        after: { title: announcement.title, published: announcement.published },
      },
      now,
    );

    return announcement;
  });
};
