import { limitAuthRequestsByIp } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { insertUser, newUser, type UserInput } from "./new-user";
import { sendCode } from "./send-code";

export type RegisterUserInput = UserInput & { clientIp: string };

/**
 * Creates an account pending verification and mails its verification code, all or nothing: when
 * the mail cannot be sent, no account remains (503) and the same registration can be retried.
 * A taken email is 422 (field `email`); a taken username is 409 username_taken, as on update.
 */
export const registerUser = async (
  deps: IdentityDeps,
  input: RegisterUserInput,
): Promise<{ userId: string }> => {
  await limitAuthRequestsByIp(deps, input.clientIp);
  const user = await newUser(deps, input, { role: "member", status: "pending_verification" });
  await deps.uow.run(async (tx) => {
    await insertUser(tx, user);
    await sendCode(deps, user, "verification", tx);
  });

  return { userId: user.id };
};
