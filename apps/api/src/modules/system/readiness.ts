// What `/ready` asks of each dependency (the composition root supplies the probes).

/**
 * One dependency `/ready` checks. `check` resolves when it is usable and throws otherwise; a
 * ReadinessFailure says what is wrong in words fit for the response, anything else reads as
 * "unavailable". A probe that `requires` another runs only once that one passed.
 */
export type ReadinessProbe = { name: string; check: () => Promise<void>; requires?: string };

/** A probe's refusal whose message may be shown (what is wrong, never how the query failed). */
export class ReadinessFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReadinessFailure";
  }
}

/**
 * Wraps a check whose good answer stays good (the schema only moves forward): once it passed, it
 * is not asked again, so a probe every few seconds costs nothing; until then it is asked each time.
 */
export const passOnce = (check: () => Promise<void>): (() => Promise<void>) => {
  let passed = false;

  return async () => {
    if (passed) {
      return;
    }
    await check();
    passed = true;
  };
};
