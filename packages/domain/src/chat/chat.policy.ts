/**
 * The pair as stored: the smaller id first, so both sides of a pair name the same row (and the
 * unique index on the ordered pair makes parallel creates from both sides meet). Who may read,
 * send or listen (the two participants) is checked in the statements that do it.
 */
export const orderedPair = (userId: string, otherId: string): [string, string] =>
  userId < otherId ? [userId, otherId] : [otherId, userId];
