import { lifestyleAdminOperations } from "@agora/contracts/lifestyle.admin";
import { createAnnouncement } from "@agora/domain/lifestyle/create-announcement";
import type { LifestyleDeps } from "@agora/domain/lifestyle/lifestyle.deps";
import { actorOf } from "../../http/middleware/auth";
import { type Handled, handle } from "../../http/operations";
import { ok } from "../../http/respond";
import { toAnnouncementDto } from "./lifestyle.presenter";

export const lifestyleAdminRoutes = ({ lifestyle }: { lifestyle: LifestyleDeps }): Handled[] => [
  handle(
    lifestyleAdminOperations.adminAnnouncementsCreate,
    async (c) => {
      const announcement = await createAnnouncement(lifestyle, actorOf(c), c.req.valid("json"));

      return ok(c, toAnnouncementDto(announcement), { status: 201 });
    },
    { roles: ["admin"] },
  ),
];
