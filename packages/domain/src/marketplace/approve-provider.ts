import { requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import { NotFoundError } from "../shared/app-error";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ProviderProfile } from "./marketplace.types";
import { publishReadyListings } from "./publish-ready-listings";

/**
 * pending → approved, in one transaction: the provider's listings record the approval (a fact of
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
    const approved = await tx.providers.approve(providerId, now);
    if (!approved) {
      const current = await tx.providers.findById(providerId);
      if (!current) {
        throw new NotFoundError("Provider");
      }

      return current;
    }
    await tx.listings.markProviderApproved(approved.id);
    // Locked: a concurrent role change by another administrator waits, then sees this one.
    const owner = await tx.users.findByIdForUpdate(approved.userId);
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
        before: { approval_status: "pending" },
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
