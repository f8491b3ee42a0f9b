/** The block graph: one table, read by every surface that shows one user to another. */
export interface BlockRepository {
  /** Records that `blockerId` blocks `blockedId`; a second time changes nothing. */
  block(blockerId: string, blockedId: string, at: Date): Promise<void>;
  /** Removes the block, if any. */
  unblock(blockerId: string, blockedId: string): Promise<void>;
  /** Whether either of the two blocks the other. */
  isBlockedEitherWay(userId: string, otherId: string): Promise<boolean>;
}

export type CommunityRepositories = {
  blocks: BlockRepository;
};
