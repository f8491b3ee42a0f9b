import { fileFilterReport, type Screening, screenText } from "../moderation/screen-text";
import type { IdentityDeps } from "./identity.deps";

/**
 * Screens a username and display name with the content filters' `profiles` rules
 * (docs/safety.md, "Filters"): `block` and `hold` both refuse (422 content_blocked on the field),
 * since a name cannot be shown to some and not to others; `flag` lets it through, to be reported.
 */
export const screenProfileNames = (
  deps: Pick<IdentityDeps, "filters" | "clock">,
  input: { username: string; displayName?: string | undefined },
): Promise<Screening> =>
  screenText(
    deps,
    "profiles",
    { username: input.username, display_name: input.displayName },
    { holdRefuses: true },
  );

/** A flagged registration's filter report, in its own transaction once the account exists. */
export const fileProfileReport = async (
  deps: Pick<IdentityDeps, "uow" | "ids">,
  screening: Screening,
  user: { id: string; username: string; displayName: string; createdAt: Date },
): Promise<void> => {
  if (screening.action === null) {
    return;
  }
  await deps.uow.run((tx) =>
    fileFilterReport(tx, deps, screening, {
      type: "user",
      id: user.id,
      ownerId: user.id,
      snapshot: { username: user.username, display_name: user.displayName },
      at: user.createdAt,
    }),
  );
};
