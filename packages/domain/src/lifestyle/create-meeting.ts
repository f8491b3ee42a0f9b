import type { FieldIssue } from "@agora/contracts/errors";
import type { Actor } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { type LifestyleDeps, MEETING_INVITEES_MAX } from "./lifestyle.deps";
import { canBeInvited } from "./lifestyle.policy";
import type { Meeting } from "./lifestyle.types";

/**
 * The invitee list's problems, one per offending entry (`invitee_ids.<index>`): at most 100 ids,
 * each once, never the host, and each a user `canBeInvited` accepts. Who cannot be invited (no
 * such account, not active, or a block between them and the host) gets one message, so the
 * answer does not tell a host who blocked them.
 */
const inviteeIssues = async (
  { repos }: Pick<LifestyleDeps, "repos">,
  hostId: string,
  inviteeIds: readonly string[],
): Promise<FieldIssue[]> => {
  if (inviteeIds.length > MEETING_INVITEES_MAX) {
    return [{ path: "invitee_ids", message: `must name at most ${MEETING_INVITEES_MAX} users` }];
  }
  const candidates = new Map(
    (await repos.meetings.findInviteeCandidates(hostId, inviteeIds)).map((candidate) => [
      candidate.userId,
      candidate,
    ]),
  );
  const seen = new Set<string>();

  return inviteeIds.flatMap((id, index) => {
    const path = `invitee_ids.${index}`;
    if (seen.has(id)) {
      return [{ path, message: "is named twice" }];
    }
    seen.add(id);
    if (id === hostId) {
      return [{ path, message: "is the host (the host is always in the meeting)" }];
    }
    const candidate = candidates.get(id);

    return candidate && canBeInvited(candidate) ? [] : [{ path, message: "cannot be invited" }];
  });
};

/**
 * A meeting hosted by the caller, `scheduled` until the host joins. With `inviteeIds` (at least
 * one) it is private: listed to, and joinable by, the host and those users only; without, it is
 * open. A list with any entry that cannot be invited is refused whole (422, every entry named).
 */
export const createMeeting = async (
  deps: Pick<LifestyleDeps, "uow" | "repos" | "clock" | "ids">,
  actor: Actor,
  input: { title: string; startsAt: Date; inviteeIds?: readonly string[] | undefined },
): Promise<Meeting> => {
  const { uow, clock, ids } = deps;
  if (input.inviteeIds !== undefined) {
    const issues = await inviteeIssues(deps, actor.userId, input.inviteeIds);
    if (issues.length > 0) {
      throw new ValidationError(issues, "Some invitees cannot be invited.");
    }
  }
  const meeting: Meeting = {
    id: ids.next(),
    hostId: actor.userId,
    title: input.title,
    startsAt: input.startsAt,
    status: "scheduled",
    visibility: input.inviteeIds === undefined ? "open" : "private",
    // In id order, as the repository reads them back.
    inviteeIds: [...(input.inviteeIds ?? [])].sort(),
    endedAt: null,
    createdAt: clock.now(),
  };
  await uow.run((tx) => tx.meetings.create(meeting));

  return meeting;
};
