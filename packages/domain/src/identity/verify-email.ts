import { limitAuthRequestsByIp } from "./guards";
import { CODE_POLICY, type IdentityDeps } from "./identity.deps";
import { InvalidCodeError } from "./identity.errors";
import { hashCode } from "./secrets";

/** Consumes the verification code and activates the account (422 invalid_code otherwise). */
export const verifyEmail = async (
  deps: IdentityDeps,
  input: { userId: string; code: string; clientIp: string },
): Promise<void> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const { uow, clock, settings } = deps;
  const now = clock.now();
  const codeHash = hashCode(settings.codeKey, input.userId, "verification", input.code);
  // A wrong code's counted attempt must survive, so the outcome leaves the transaction as a value.
  const outcome = await uow.run(async (tx) => {
    const attempt = await tx.codes.attempt(
      input.userId,
      "verification",
      codeHash,
      now,
      CODE_POLICY.maxAttempts,
    );
    if (attempt !== "accepted") {
      return attempt;
    }

    return (await tx.users.activate(input.userId, now)) ? "accepted" : "not_pending";
  });
  if (outcome !== "accepted") {
    throw new InvalidCodeError(422);
  }
};
