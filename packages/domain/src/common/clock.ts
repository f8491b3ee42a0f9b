/** Time source; tests inject a controllable one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move forward. */
export const createManualClock = (start: Date = new Date()) => {
  let current = start.getTime();

  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
    set(date: Date) {
      current = date.getTime();
    },
  };
};
export type ManualClock = ReturnType<typeof createManualClock>;
