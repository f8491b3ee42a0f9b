import type { Page, PageRequest } from "../common/page";
import type { LifestyleDeps } from "./lifestyle.deps";
import type { Announcement } from "./lifestyle.types";

/** Published announcements, newest first, for any signed-in user. */
export const listAnnouncements = (
  { repos }: Pick<LifestyleDeps, "repos">,
  page: PageRequest,
): Promise<Page<Announcement>> => repos.announcements.listPublished(page);
