import type { Actor } from "../shared/actor";
import { ValidationError } from "../shared/app-error";
import type { LifestyleDeps } from "./lifestyle.deps";
import { DATING_MIN_AGE, isAdultBirthYear } from "./lifestyle.policy";
import type { DatingProfile } from "./lifestyle.types";

/**
 * Creates or replaces the caller's dating profile. Interests are trimmed and de-duplicated
 * (case-insensitively, first spelling kept); a birth year must make the member an adult.
 */
export const upsertDatingProfile = async (
  { repos, clock }: Pick<LifestyleDeps, "repos" | "clock">,
  actor: Actor,
  input: { visible: boolean; bio: string; interests: string[]; birthYear?: number | undefined },
): Promise<DatingProfile> => {
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

  return repos.datingProfiles.upsert(
    {
      userId: actor.userId,
      visible: input.visible,
      bio: input.bio.trim(),
      interests,
      birthYear: input.birthYear ?? null,
    },
    now,
  );
};
