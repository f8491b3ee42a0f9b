import {
  checkPassword,
  countPasswordTry,
  limitAuthRequestsByIp,
  normalizeEmail,
  startResendCooldown,
} from "./guards";
import { type IdentityDeps, identityMailDeps } from "./identity.deps";
import { AccountSuspendedError, EmailNotVerifiedError } from "./identity.errors";
import { sendCode } from "./send-code";

/**
 * Checks email and password, then mails a sign-in code; no session is created here. An unknown
 * email and a wrong password take the same time (a dummy hash is verified) and answer the same
 * 401.
 *
 * Guessing is refused per (address, client): every try is counted per email and client address
 * (IPv6 per /64) before the password is checked (one atomic increment, so parallel guesses cannot
 * all slip under the limit); past LOGIN_FAILURES_PER_CLIENT that client answers 429 for the email
 * until the window ends, and the right password clears its count. Per address alone nothing is
 * refused, so the owner's right password from a client that has not been guessing always passes
 * (it still needs the mailed code); many wrong passwords from anywhere mail the owner a notice.
 */
export const startLogin = async (
  deps: IdentityDeps,
  input: { email: string; password: string; clientIp: string },
) => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { repos } = deps;
  const email = normalizeEmail(input.email);
  const guess = await countPasswordTry(deps, email, input.clientIp);
  const user = await checkPassword(deps, guess, await repos.users.findByEmail(email), input.password);
  if (user.status === "pending_verification") {
    throw new EmailNotVerifiedError();
  }
  if (user.status === "suspended") {
    throw new AccountSuspendedError();
  }
  await sendCode(identityMailDeps(deps), user, "sign_in");
  await startResendCooldown(deps, "sign_in", email);
};
