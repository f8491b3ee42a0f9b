import { codeRequested } from "./events/code-requested";
import type { IdentityDeps } from "./identity.deps";
import type { CodePurpose, User } from "./identity.types";

/**
 * Queues the code mail of an email-only request. The same one write happens whether or not an
 * account was found (null then), so neither the answer nor its timing says which; the worker
 * decides at delivery whether anything is mailed.
 */
export const requestCodeMail = async (
  { repos, clock }: Pick<IdentityDeps, "repos" | "clock">,
  user: Pick<User, "id" | "status"> | null,
  purpose: CodePurpose,
): Promise<void> => {
  const userId = user && user.status !== "deleted" ? user.id : null;
  await repos.outbox.append(codeRequested.event(userId ?? "none", { user_id: userId, purpose }), clock.now());
};
