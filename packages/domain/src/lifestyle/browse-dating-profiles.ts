import type { Actor } from "../shared/actor";
import type { Page, PageRequest } from "../shared/page";
import type { LifestyleDeps } from "./lifestyle.deps";
import type { BrowsedProfile } from "./lifestyle.types";

/**
 * Other members' visible profiles: never the caller, blocks applied both ways, suspended and
 * deleted accounts left out; a stable order (first created first) for limit/offset paging.
 */
export const browseDatingProfiles = (
  { repos }: Pick<LifestyleDeps, "repos">,
  actor: Actor,
  page: PageRequest,
): Promise<Page<BrowsedProfile>> => repos.datingProfiles.browse(actor.userId, page);
