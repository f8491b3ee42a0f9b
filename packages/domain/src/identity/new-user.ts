import type { Role } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { normalizeEmail } from "./guards";
import type { IdentityDeps } from "./identity.deps";
import { UsernameTakenError } from "./identity.errors";
import type { IdentityRepositories, NewUser } from "./identity.ports";

export type UserInput = {
  username: string;
  email: string;
  password: string;
  displayName?: string | undefined;
  locale?: string | undefined;
};

/** The account record: normalised email and names, the password hashed (before any transaction). */
export const newUser = async (
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
export const insertUser = async (tx: IdentityRepositories, user: NewUser): Promise<void> => {
  const created = await tx.users.create(user);
  if (created === "email_taken") {
    throw new ValidationError([{ path: "email", message: "is already registered" }]);
  }
  if (created === "username_taken") {
    throw new UsernameTakenError();
  }
};
