import type { Actor } from "../common/actor";
import type { Page, PageRequest } from "../common/page";
import { type RecordMedia, recordMedia } from "../media/record-media";
import type { LifestyleDeps } from "./lifestyle.deps";
import type { BrowsedProfile } from "./lifestyle.types";

/**
 * Other members' visible profiles: never the caller, blocks applied both ways, suspended and
 * deleted accounts left out; a stable order (first created first) for limit/offset paging. The
 * page's photos are read in one statement, by user id (a profile without photos is absent).
 */
export const browseDatingProfiles = async (
  { repos, clock, objects }: Pick<LifestyleDeps, "repos" | "clock" | "objects">,
  actor: Actor,
  page: PageRequest,
): Promise<Page<BrowsedProfile> & { photos: Map<string, RecordMedia[]> }> => {
  const found = await repos.datingProfiles.browse(actor.userId, page);
  const photos = new Map<string, RecordMedia[]>();
  if (found.items.length === 0) {
    return { ...found, photos };
  }
  const now = clock.now();
  const assets = await repos.media.findOnRecords(
    "dating_profile",
    found.items.map((profile) => profile.userId),
  );
  for (const [userId, list] of assets) {
    photos.set(userId, await recordMedia(objects, list, now, actor.userId));
  }

  return { ...found, photos };
};
