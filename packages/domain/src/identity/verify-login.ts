import { attemptCode } from "./code-limits";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import type { IssuedSession } from "./identity.types";
import { addRefreshToken, presentSession } from "./issue-session";
import { codeHashes } from "./secrets";

/** Stands in for the account of an unknown or inactive address, so both paths run the same statements. */
const NO_ACCOUNT = "00000000-0000-0000-0000-000000000000";

/**
 * Consumes the sign-in code and opens a session: the only place tokens are issued from a login.
 * The code is spent atomically, so two parallel requests with it get one session (the other 401).
 * A wrong code counts towards the account's daily cap of wrong sign-in codes.
 *
 * An unknown address, or an account that is not active, does the same work as an active account
 * with a wrong code: the code's HMAC, one transaction with the code check (against no row) and one
 * counter write, so neither the answer (401 invalid_code) nor its timing tells them apart.
 */
export const verifyLogin = async (
  deps: IdentityDeps,
  input: { email: string; code: string; clientIp: string },
): Promise<IssuedSession> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, uow, clock, ids, settings } = deps;
  const email = normalizeEmail(input.email);
  const found = await repos.users.findByEmail(email);
  const user = found?.status === "active" ? found : null;
  const userId = user?.id ?? NO_ACCOUNT;
  const now = clock.now();
  const hashes = codeHashes(settings.codeKey, userId, "sign_in", input.code);
  const outcome = await uow.run(async (tx) => {
    const attempt = await attemptCode(tx, {
      userId,
      purpose: "sign_in",
      codeHashes: hashes,
      now,
      unmatchedKey: `codes:unmatched:sign_in:${email}`,
    });
    if (attempt !== "accepted" || !user) {
      return null;
    }
    const sessionId = ids.next();
    await tx.sessions.create({ id: sessionId, userId: user.id, createdAt: now });
    const refreshToken = await addRefreshToken(deps, tx, { id: sessionId, createdAt: now }, now);

    return { user, sessionId, refreshToken };
  });
  if (!outcome) {
    throw new InvalidCodeError();
  }

  return presentSession(deps, outcome.user, outcome.sessionId, outcome.refreshToken, now);
};
