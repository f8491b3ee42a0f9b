import type { Role } from "../common/actor";
import type { IdentityDeps } from "./identity.deps";
import { insertUser, newUser, type UserInput } from "./new-user";

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
        after: { role: input.role, status: "active" },
      },
      user.createdAt,
    );
  });

  return { userId: user.id };
};
