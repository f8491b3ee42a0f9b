import { ForbiddenError } from "../common/app-error";
import type { BlockRepository } from "./community.ports";

/** Thrown when either user of a pair has blocked the other (403). */
export class BlockedError extends ForbiddenError {
  constructor() {
    super("One of you has blocked the other.");
  }
}

/**
 * The one block rule, for every surface that lets one user reach another (conversations,
 * messages, comments, joining a meeting): a block in either direction forbids it (403). Lists
 * (feed, comments, dating browse, meetings) apply the same rule in their SQL through the same table.
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
