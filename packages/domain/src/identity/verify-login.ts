import { addressPrefix } from "../common/rate-limit";
import { attemptCode } from "./code-limits";
import { newSignIn } from "./events/account-notices";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import type { SessionOrigin } from "./identity.ports";
import type { IdentityTransaction } from "./identity.transaction";
import type { IssuedSession } from "./identity.types";
import { addRefreshToken, presentSession } from "./issue-session";
import { codeHashes } from "./secrets";

/** Stands in for the account of an unknown or inactive address, so both paths run the same statements. */
const NO_ACCOUNT = "00000000-0000-0000-0000-000000000000";

/** What the signing-in client says of itself: its platform (the body's) and its User-Agent. */
export type SignInClient = { platform?: string | undefined; userAgent?: string | undefined };

/** The longest User-Agent a session keeps. */
const USER_AGENT_CHARS = 256;

/** A sign-in within this of another from the same platform and address prefix is no news. */
const NEW_ORIGIN_WINDOW_MS = 90 * 24 * 3600_000;

/**
 * The session's origin: the platform, the User-Agent (control and format characters removed, so a
 * bidirectional override cannot disguise it in the list or a mail; cut), the /24 or /48.
 */
const sessionOrigin = (input: { clientIp: string } & SignInClient): SessionOrigin => {
  const userAgent = input.userAgent
    ?.replace(/[\p{Cc}\p{Cf}]/gu, "")
    .trim()
    .slice(0, USER_AGENT_CHARS);

  return {
    platform: input.platform ?? null,
    userAgent: userAgent || null,
    addressHint: addressPrefix(input.clientIp),
  };
};

/**
 * Mails the owner (identity.new_sign_in) when this sign-in's platform and address prefix match none
 * of the account's sign-ins of the last 90 days. Not for an account's first sign-in: there is
 * nothing to compare it with, and its owner just verified the address.
 */
const noticeNewOrigin = async (
  tx: IdentityTransaction,
  signIn: { userId: string; sessionId: string; origin: SessionOrigin; now: Date },
): Promise<void> => {
  const { userId, sessionId, origin, now } = signIn;
  const history = await tx.sessions.signInHistory(
    userId,
    sessionId,
    new Date(now.getTime() - NEW_ORIGIN_WINDOW_MS),
    origin,
  );
  if (!history.earlier || history.seen) {
    return;
  }
  await tx.outbox.append(
    newSignIn.event(userId, {
      user_id: userId,
      session_id: sessionId,
      signed_in_at: now.toISOString(),
      platform: origin.platform,
      address_hint: origin.addressHint,
      user_agent: origin.userAgent,
    }),
    now,
  );
};

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
  input: { email: string; code: string; clientIp: string } & SignInClient,
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
    const origin = sessionOrigin(input);
    await tx.sessions.create({ id: sessionId, userId: user.id, createdAt: now, ...origin });
    const refreshToken = await addRefreshToken(deps, tx, { id: sessionId, createdAt: now }, now);
    await noticeNewOrigin(tx, { userId: user.id, sessionId, origin, now });

    return { user, sessionId, refreshToken };
  });
  if (!outcome) {
    throw new InvalidCodeError();
  }

  return presentSession(deps, outcome.user, outcome.sessionId, outcome.refreshToken, now);
};
