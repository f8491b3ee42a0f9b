import { ForbiddenError } from "../shared/app-error";
import type { BlockRepository } from "./community.ports";

/** Thrown when either user of a pair has blocked the other (403). */
export class BlockedError extends ForbiddenError {
  constructor() {
    super("One of you has blocked the other.");
  }
}

/**
 * The one block rule, for every surface that lets one user reach another (conversations,
 * messages, comments): a block in either direction forbids it (403). Lists (feed, comments,
 * dating browse) apply the same rule in their SQL through the same table.
 *
 * @public No surface calls it yet (chat and comments will); the tag keeps knip from failing CI.
 */
export const assertNotBlocked = async (
  blocks: Pick<BlockRepository, "isBlockedEitherWay">,
  userId: string,
  otherId: string,
): Promise<void> => {
  if (await blocks.isBlockedEitherWay(userId, otherId)) {
    throw new BlockedError();
  }
};
