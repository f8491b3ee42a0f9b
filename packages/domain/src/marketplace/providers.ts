import { requireRole } from "../identity/identity.policy";
import type { Actor } from "../shared/actor";
import { ForbiddenError, NotFoundError, ValidationError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import type { MarketplaceDeps } from "./marketplace.deps";
import type { ManualSale, ProviderDashboard, ProviderProfile } from "./marketplace.types";

type ProviderInput = { displayName: string; bio?: string | undefined; phone?: string | undefined };

/** The caller's own provider profile, or null. */
export const findOwnProvider = (repos: MarketplaceDeps["repos"], actor: Actor) =>
  repos.providers.findByUserId(actor.userId);

/**
 * Creates the caller's provider profile: owner from the token, `pending` approval, `offline`.
 * A second profile for the same user is 422 (one profile per user).
 */
export const createProvider = async (
  { repos, clock, ids }: Pick<MarketplaceDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: ProviderInput,
): Promise<ProviderProfile> => {
  const now = clock.now();
  const profile: ProviderProfile = {
    id: ids.next(),
    userId: actor.userId,
    displayName: input.displayName,
    bio: input.bio ?? "",
    phone: input.phone ?? null,
    approvalStatus: "pending",
    availability: "offline",
    createdAt: now,
  };
  if (!(await repos.providers.create(profile, now))) {
    throw new ValidationError([{ path: "user", message: "already has a provider profile" }]);
  }

  return profile;
};

/** Changes the caller's own profile (404 without one). */
export const updateOwnProvider = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  changes: { displayName?: string | undefined; bio?: string | undefined; phone?: string | null | undefined },
): Promise<ProviderProfile> =>
  uow.run(async (tx) => {
    const own = await findOwnProvider(tx, actor);
    const updated = own ? await tx.providers.update(own.id, changes, clock.now()) : null;
    if (!updated) {
      throw new NotFoundError("Provider profile");
    }

    return updated;
  });

/** Providers only: the caller must hold the provider role and own a profile (403 otherwise). */
const requireOwnProviderRole = async (
  repos: MarketplaceDeps["repos"],
  actor: Actor,
): Promise<ProviderProfile> => {
  requireRole(actor, "provider");
  const own = await findOwnProvider(repos, actor);
  if (!own) {
    throw new ForbiddenError("This needs a provider profile.");
  }

  return own;
};

/** The owner's dashboard: listings and orders by status, 30-day revenue, payments awaiting review. */
export const getProviderDashboard = async (
  { repos, clock }: Pick<MarketplaceDeps, "repos" | "clock">,
  actor: Actor,
): Promise<ProviderDashboard> =>
  repos.dashboard.forProvider(await requireOwnProviderRole(repos, actor), clock.now());

/** Records a manual sale (money taken outside the app) for the caller's provider profile. */
export const recordManualSale = async (
  { repos, clock, ids }: Pick<MarketplaceDeps, "repos" | "clock" | "ids">,
  actor: Actor,
  input: {
    amount: number;
    currency: string;
    occurredAt?: Date | undefined;
    description: string;
    customerLabel?: string | undefined;
  },
): Promise<ManualSale> => {
  const provider = await requireOwnProviderRole(repos, actor);
  const now = clock.now();
  const sale: ManualSale = {
    id: ids.next(),
    providerId: provider.id,
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    customerLabel: input.customerLabel ?? null,
    occurredAt: input.occurredAt ?? now,
    createdAt: now,
  };
  await repos.sales.createManual(sale);

  return sale;
};

/**
 * pending → approved, in one transaction: the owner becomes a provider (a member is promoted;
 * staff roles are kept), draft listings whose subscription is already paid are published, and the
 * decision is audited. Approving an approved provider changes nothing and answers the profile.
 */
export const approveProvider = async (
  { uow, clock }: Pick<MarketplaceDeps, "uow" | "clock">,
  actor: Actor,
  providerId: string,
): Promise<ProviderProfile> => {
  requireRole(actor, "admin");
  if (!isUuid(providerId)) {
    throw new NotFoundError("Provider");
  }
  const now = clock.now();

  return uow.run(async (tx) => {
    const approved = await tx.providers.approve(providerId, now);
    if (approved === null) {
      throw new NotFoundError("Provider");
    }
    if (approved === "already") {
      const current = await tx.providers.findById(providerId);
      if (!current) {
        throw new NotFoundError("Provider");
      }

      return current;
    }
    const roleBefore = await tx.providers.promoteOwner(approved.userId, now);
    const published = await tx.listings.publishPaidDrafts(approved.id, now);
    await tx.audit.record(
      {
        actor,
        action: "provider.approved",
        targetType: "provider",
        targetId: approved.id,
        details: { owner_id: approved.userId, owner_role_before: roleBefore, published_listings: published },
      },
      now,
    );

    return approved;
  });
};
