import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import { fileFilterReport } from "../moderation/screen-text";
import type { IdentityDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import type { User } from "./identity.types";
import { screenProfileNames } from "./screen-profile";

/**
 * Changes the caller's username and display name (409 username_taken when another account has
 * it). `mediaAssetIds`, when given, replaces the avatar (at most one of the caller's processed
 * assets uploaded for `avatar`; `[]` removes it, and the old one is left to the orphan purge).
 * The names are screened by the content filters' `profiles` rules (screen-profile.ts).
 */
export const updateMe = async (
  deps: Pick<IdentityDeps, "uow" | "repos" | "clock" | "objects" | "ids" | "filters">,
  actor: Actor,
  input: { username: string; displayName: string; mediaAssetIds?: readonly string[] | undefined },
): Promise<{ user: User; media: RecordMedia[] }> => {
  const { uow, clock } = deps;
  const screening = await screenProfileNames(deps, input);
  const record = { kind: "user", id: actor.userId, purpose: "avatar" } as const;
  const change = await prepareMediaChange(deps, actor, record, input.mediaAssetIds);
  const { user, assets } = await uow.run(async (tx) => {
    const now = clock.now();
    const updated = await tx.users.updateProfile(
      actor.userId,
      { username: input.username.trim(), displayName: input.displayName.trim() },
      now,
    );
    if (updated === "username_taken") {
      throw new UsernameTakenError();
    }
    if (!updated) {
      throw new NotFoundError("User");
    }
    await fileFilterReport(tx, deps, screening, {
      type: "user",
      id: updated.id,
      ownerId: updated.id,
      snapshot: { username: updated.username, display_name: updated.displayName },
      at: now,
    });

    return { user: updated, assets: await applyMediaChange(tx, actor, record, change, now) };
  });

  return { user, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
