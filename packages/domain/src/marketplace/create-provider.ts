import type { Actor } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { applyMediaChange, prepareMediaChange, type RecordMedia, recordMedia } from "../media/record-media";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderProfile } from "./marketplace.types";

/**
 * Creates the caller's provider profile: owner from the token, `pending` approval, `offline`.
 * A second profile for the same user is 422 (one profile per user). `mediaAssetIds`: its logo (at
 * most one of the caller's processed assets uploaded for `provider_logo`).
 */
export const createProvider = async (
  deps: Pick<MarketplaceDeps, "uow" | "repos" | "clock" | "ids" | "objects">,
  actor: Actor,
  input: {
    displayName: string;
    bio?: string | undefined;
    phone?: string | undefined;
    mediaAssetIds?: readonly string[] | undefined;
  },
): Promise<{ profile: ProviderProfile; media: RecordMedia[] }> => {
  const { uow, clock, ids } = deps;
  const change = await prepareMediaChange(
    deps,
    actor,
    { kind: "provider", id: null, purpose: "provider_logo" },
    input.mediaAssetIds,
  );
  const { profile, assets } = await uow.run(async (tx) => {
    const now = clock.now();
    const created: ProviderProfile = {
      id: ids.next(),
      userId: actor.userId,
      displayName: input.displayName,
      bio: input.bio ?? "",
      phone: input.phone ?? null,
      approvalStatus: "pending",
      availability: "offline",
      createdAt: now,
    };
    if (!(await tx.providers.create(created, now))) {
      throw new ValidationError([{ path: "user", message: "already has a provider profile" }]);
    }
    const record = { kind: "provider", id: created.id, purpose: "provider_logo" } as const;

    return { profile: created, assets: await applyMediaChange(tx, actor, record, change, now) };
  });

  return { profile, media: await recordMedia(deps.objects, assets, clock.now(), actor.userId) };
};
