import { attemptCode } from "./code-limits";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import type { IssuedSession } from "./identity.types";
import { addRefreshToken, presentSession } from "./issue-session";
import { hashCode } from "./secrets";

/**
 * Consumes the sign-in code and opens a session: the only place tokens are issued from a login.
 * The code is spent atomically, so two parallel requests with it get one session (the other 401).
 * A wrong code counts towards the account's daily cap of wrong sign-in codes.
 */
export const verifyLogin = async (
  deps: IdentityDeps,
  input: { email: string; code: string; clientIp: string },
): Promise<IssuedSession> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos, uow, clock, ids, settings } = deps;
  const user = await repos.users.findByEmail(normalizeEmail(input.email));
  if (user?.status !== "active") {
    throw new InvalidCodeError(401);
  }
  const now = clock.now();
  const codeHash = hashCode(settings.codeKey, user.id, "sign_in", input.code);
  const outcome = await uow.run(async (tx) => {
    const attempt = await attemptCode(tx, { userId: user.id, purpose: "sign_in", codeHash, now });
    if (attempt !== "accepted") {
      return null;
    }
    const sessionId = ids.next();
    await tx.sessions.create({ id: sessionId, userId: user.id, createdAt: now });
    const refreshToken = await addRefreshToken(deps, tx, { id: sessionId, createdAt: now }, now);

    return { sessionId, refreshToken };
  });
  if (!outcome) {
    throw new InvalidCodeError(401);
  }

  return presentSession(deps, user, outcome.sessionId, outcome.refreshToken, now);
};
