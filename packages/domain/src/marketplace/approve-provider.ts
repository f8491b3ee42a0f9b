import type { Actor } from "../common/actor";
import { NotFoundError } from "../common/app-error";
import { requireRole } from "../identity/identity.policy";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderProfile } from "./marketplace.types";
import { publishReadyListings } from "./publish-ready-listings";

/**
 * pending (or withdrawn) → approved, in one transaction: the provider's listings record the approval (a fact of
 * their public visibility), the owner becomes a provider (a member is promoted; staff roles are
 * kept), draft listings whose subscription is already paid are published, and the decision is
 * audited. Approving an approved provider changes nothing and answers the profile.
 */
export const approveProvider = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  providerId: string,
): Promise<ProviderProfile> => {
  requireRole(actor, "admin");
  const now = clock.now();

  return uow.run(async (tx) => {
    const current = await tx.providers.findById(providerId);
    if (!current) {
      throw new NotFoundError("Provider");
    }
    // The owner's row first, then the profile: the order a role change takes them in (it updates
    // the user, then withdraws the profile), so an approval and a demotion in parallel serialize.
    const owner = await tx.users.findByIdForUpdate(current.userId);
    const before = (await tx.providers.findById(providerId)) ?? current;
    const approved = await tx.providers.approve(providerId, now);
    if (!approved) {
      return (await tx.providers.findById(providerId)) ?? current;
    }
    await tx.listings.markProviderApproved(approved.id);
    if (owner?.role === "member") {
      await tx.users.setRole(owner.id, "provider", now);
    }
    const published = await publishReadyListings(
      tx,
      approved,
      await tx.listings.listByProvider(approved.id, now),
      now,
    );
    await tx.audit.record(
      {
        actor,
        action: "provider.approved",
        targetType: "provider",
        targetId: approved.id,
        before: { approval_status: before.approvalStatus },
        after: { approval_status: "approved" },
        details: {
          owner_id: approved.userId,
          owner_role_before: owner?.role ?? null,
          published_listings: published,
        },
      },
      now,
    );

    return approved;
  });
};
