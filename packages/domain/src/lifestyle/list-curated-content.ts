import type { Page, PageRequest } from "../common/page";
import type { LifestyleDeps } from "./lifestyle.deps";
import type { CuratedContent } from "./lifestyle.types";

/** Published curated content, newest first. */
export const listCuratedContent = (
  { repos }: Pick<LifestyleDeps, "repos">,
  page: PageRequest,
): Promise<Page<CuratedContent>> => repos.curatedContent.list(page);
