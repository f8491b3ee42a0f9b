import type { LifestyleDeps } from "./lifestyle.deps";
import type { CuratedContent } from "./lifestyle.types";

/** Publishes a curated content item now (`pnpm agora content publish`); the operator is not a user. */
export const publishCuratedContent = async (
  { repos, clock, ids }: Pick<LifestyleDeps, "repos" | "clock" | "ids">,
  input: { title: string; body: string },
): Promise<CuratedContent> => {
  const now = clock.now();
  const item: CuratedContent = { id: ids.next(), title: input.title, body: input.body, publishedAt: now };
  await repos.curatedContent.create(item, now);

  return item;
};
