import { attemptCode } from "./code-limits";
import { limitAuthRequestsByIp } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import { codeHashes } from "./secrets";

/**
 * Consumes the verification code and activates the account (422 invalid_code otherwise). A wrong
 * code counts towards the account's daily cap of wrong verification codes.
 */
export const verifyEmail = async (
  deps: IdentityDeps,
  input: { userId: string; code: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { uow, clock, settings } = deps;
  const now = clock.now();
  const hashes = codeHashes(settings.codeKey, input.userId, "verification", input.code);
  // A wrong code's counted attempt must survive, so the outcome leaves the transaction as a value.
  const outcome = await uow.run(async (tx) => {
    const attempt = await attemptCode(tx, {
      userId: input.userId,
      purpose: "verification",
      codeHashes: hashes,
      now,
    });
    if (attempt !== "accepted") {
      return attempt;
    }

    return (await tx.users.activate(input.userId, now)) ? "accepted" : "not_pending";
  });
  if (outcome !== "accepted") {
    throw new InvalidCodeError();
  }
};
