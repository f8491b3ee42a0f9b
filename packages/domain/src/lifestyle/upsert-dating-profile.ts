import type { Actor } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { LifestyleDeps } from "./lifestyle.deps";
import { DATING_MIN_AGE, isAdultBirthYear } from "./lifestyle.policy";
import type { DatingProfile } from "./lifestyle.types";

/**
 * Creates or replaces the caller's dating profile. Interests are trimmed and de-duplicated
 * (case-insensitively, first spelling kept); a birth year must make the member an adult.
 * `mediaAssetIds`, when given, becomes the photos in that order (up to 6 of the caller's processed
 * assets uploaded for `dating_photo`; photos dropped are left to the orphan purge); absent, the
 * photos stay as they are. The bio and interests are screened by the content filters
 * (docs/safety.md, "Filters"): 422 content_blocked, or held (out of browse until approved) or
 * flagged, with a filter report.
 */
export const upsertDatingProfile = async (
  deps: Pick<LifestyleDeps, "uow" | "repos" | "clock" | "objects" | "ids" | "filters">,
  actor: Actor,
  input: {
    visible: boolean;
    bio: string;
    interests: string[];
    birthYear?: number | undefined;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ profile: DatingProfile; media: RecordMedia[] }> => {
  const { uow, clock } = deps;
  const now = clock.now();
  if (input.birthYear !== undefined && !isAdultBirthYear(input.birthYear, now)) {
    throw new ValidationError([
      { path: "birth_year", message: `must make you at least ${DATING_MIN_AGE} this year` },
    ]);
  }
  const seen = new Set<string>();
  const interests = input.interests
    .map((interest) => interest.trim())
    .filter((interest) => {
      const key = interest.toLowerCase();
      if (interest === "" || seen.has(key)) {
        return false;
      }
      seen.add(key);

      return true;
    });

  const bio = input.bio.trim();
  const screening = await screenText(deps, "dating_profiles", {
    bio,
    ...Object.fromEntries(interests.map((interest, index) => [`interests.${index}`, interest])),
  });
  const record = { kind: "dating_profile", id: actor.userId, purpose: "dating_photo" } as const;
  const change = await prepareMediaChange(deps, actor, record, input.mediaAssetIds);
  const { profile, assets } = await uow.run(async (tx) => {
    const at = clock.now();
    const saved = await tx.datingProfiles.upsert(
      {
        userId: actor.userId,
        visible: input.visible,
        bio,
        interests,
        birthYear: input.birthYear ?? null,
      },
      at,
      screening.action === "hold",
    );
    await fileFilterReport(tx, deps, screening, {
      type: "dating_profile",
      id: actor.userId,
      ownerId: actor.userId,
      snapshot: { bio, interests },
      at,
    });

    return { profile: saved, assets: await applyMediaChange(tx, actor, record, change, at) };
  });

  return { profile, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
