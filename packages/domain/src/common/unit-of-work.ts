/**
 * Runs `work` in one database transaction with repositories bound to it; rolls back when it
 * throws. `R` is the set of repositories a use case needs.
 */
export interface UnitOfWork<R> {
  run<T>(work: (tx: R) => Promise<T>): Promise<T>;
}
