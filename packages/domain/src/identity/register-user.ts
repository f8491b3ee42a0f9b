import type { Role } from "../shared/actor";
import { ValidationError } from "../shared/app-error";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import { sendCode } from "./send-code";

export type RegisterUserInput = {
  username: string;
  email: string;
  password: string;
  displayName?: string | undefined;
  locale?: string | undefined;
  clientIp: string;
};

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
  const { uow, clock, ids, passwords } = deps;
  const email = normalizeEmail(input.email);
  const passwordHash = await passwords.hash(input.password);
  const now = clock.now();
  const user = {
    id: ids.next(),
    email,
    username: input.username.trim(),
    displayName: input.displayName?.trim() ?? "",
    locale: input.locale ?? null,
    passwordHash,
    role: "member" as const,
    status: "pending_verification" as const,
    createdAt: now,
  };

  await uow.run(async (tx) => {
    const created = await tx.users.create(user);
    if (created === "email_taken") {
      throw new ValidationError([{ path: "email", message: "is already registered" }]);
    }
    if (created === "username_taken") {
      throw new UsernameTakenError();
    }
    await sendCode(deps, user, "verification", tx);
  });

  return { userId: user.id };
};

/**
 * An operator-created account (`pnpm agora user create`): active and verified at once, with the
 * given role; no mail is sent.
 */
export const createVerifiedUser = async (
  { uow, clock, ids, passwords }: Pick<IdentityDeps, "uow" | "clock" | "ids" | "passwords">,
  input: { username: string; email: string; password: string; displayName?: string | undefined; role: Role },
): Promise<{ userId: string }> => {
  const now = clock.now();
  const userId = ids.next();
  const passwordHash = await passwords.hash(input.password);
  await uow.run(async (tx) => {
    const created = await tx.users.create({
      id: userId,
      email: normalizeEmail(input.email),
      username: input.username.trim(),
      displayName: input.displayName?.trim() ?? "",
      locale: null,
      passwordHash,
      role: input.role,
      status: "active",
      createdAt: now,
    });
    if (created === "email_taken") {
      throw new ValidationError([{ path: "email", message: "is already registered" }]);
    }
    if (created === "username_taken") {
      throw new UsernameTakenError();
    }
    await tx.audit.record(
      {
        actor: null,
        action: "user.created_by_operator",
        targetType: "user",
        targetId: userId,
        details: { role: input.role },
      },
      now,
    );
  });

  return { userId };
};
