import { ForbiddenError } from "../common/app-error";
import type { ListingRepository, ProviderRepository } from "./marketplace.ports";
import type { MarketplaceRepositories } from "./marketplace.transaction";
import type { ProviderProfile } from "./marketplace.types";

/**
 * The one rule of a demoted provider (docs/safety.md, "Demoted providers"): setting a user's role
 * to `member` withdraws their provider profile's approval in the same transaction. Its listings
 * leave every public read, and every provider path (profile, listings, menu items, subscriptions,
 * dashboard, manual sales, order moves and order-payment confirmations as the provider) answers
 * 403 until an administrator approves the profile again.
 */
export class ProviderApprovalWithdrawnError extends ForbiddenError {
  constructor() {
    super("This provider profile's approval was withdrawn; an administrator must approve it again.");
  }
}

/** 403 when `profile`'s approval was withdrawn; the profile (or null) otherwise. */
export const requireProviderStanding = <P extends Pick<ProviderProfile, "approvalStatus">>(
  profile: P | null,
): P | null => {
  if (profile?.approvalStatus === "withdrawn") {
    throw new ProviderApprovalWithdrawnError();
  }

  return profile;
};

/** 403 when the user acting as a provider holds a withdrawn profile (order moves, confirmations). */
export const requireProviderStandingOf = async (
  repos: Pick<MarketplaceRepositories, "providers">,
  userId: string,
): Promise<void> => {
  requireProviderStanding(await repos.providers.findByUserId(userId));
};

/**
 * Withdraws the approval of `userId`'s provider profile and takes its listings out of public
 * reads, in the caller's transaction (the role change to `member`). Resolves the withdrawn
 * profile, or null when the user held no approved one.
 */
export const withdrawProviderApproval = async (
  tx: {
    providers: Pick<ProviderRepository, "withdrawByUserId">;
    listings: Pick<ListingRepository, "markProviderWithdrawn">;
  },
  userId: string,
  now: Date,
): Promise<ProviderProfile | null> => {
  const withdrawn = await tx.providers.withdrawByUserId(userId, now);
  if (withdrawn) {
    await tx.listings.markProviderWithdrawn(withdrawn.id);
  }

  return withdrawn;
};
