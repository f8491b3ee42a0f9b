import type { Role } from "../shared/actor";
import { ValidationError } from "../shared/app-error";
import { limitAuthRequestsByIp, normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import type { IdentityRepositories, NewUser } from "./identity.ports";
import { sendCode } from "./send-code";

export type RegisterUserInput = UserInput & { clientIp: string };

type UserInput = {
  username: string;
  email: string;
  password: string;
  displayName?: string | undefined;
  locale?: string | undefined;
};

/** The account record: normalised email and names, the password hashed (before any transaction). */
const newUser = async (
  { clock, ids, passwords }: Pick<IdentityDeps, "clock" | "ids" | "passwords">,
  input: UserInput,
  access: { role: Role; status: "pending_verification" | "active" },
): Promise<NewUser> => ({
  id: ids.next(),
  email: normalizeEmail(input.email),
  username: input.username.trim(),
  displayName: input.displayName?.trim() ?? "",
  locale: input.locale ?? null,
  passwordHash: await passwords.hash(input.password),
  role: access.role,
  status: access.status,
  createdAt: clock.now(),
});

/** Inserts the account: a taken email is 422 (field `email`), a taken username 409 username_taken. */
const insertUser = async (tx: IdentityRepositories, user: NewUser): Promise<void> => {
  const created = await tx.users.create(user);
  if (created === "email_taken") {
    throw new ValidationError([{ path: "email", message: "is already registered" }]);
  }
  if (created === "username_taken") {
    throw new UsernameTakenError();
  }
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
  const user = await newUser(deps, input, { role: "member", status: "pending_verification" });
  await deps.uow.run(async (tx) => {
    await insertUser(tx, user);
    await sendCode(deps, user, "verification", tx);
  });

  return { userId: user.id };
};

/**
 * An operator-created account (`pnpm agora user create`): active and verified at once, with the
 * given role; no mail is sent.
 */
export const createVerifiedUser = async (
  deps: Pick<IdentityDeps, "uow" | "clock" | "ids" | "passwords">,
  input: UserInput & { role: Role },
): Promise<{ userId: string }> => {
  const user = await newUser(deps, input, { role: input.role, status: "active" });
  await deps.uow.run(async (tx) => {
    await insertUser(tx, user);
    await tx.audit.record(
      {
        actor: null,
        action: "user.created_by_operator",
        targetType: "user",
        targetId: user.id,
        details: { role: input.role },
      },
      user.createdAt,
    );
  });

  return { userId: user.id };
};
