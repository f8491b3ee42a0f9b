/**
 * Request coalescing: calls for `key` that arrive while one runs do not start their own; they wait
 * for it to end and share the next one, which starts then. So every caller gets a call that began
 * after it asked (a client that changed something and then reads is never answered by a read that
 * began before its change), and a burst of identical reads runs them one at a time, each shared by
 * every caller that arrived while the previous one ran, instead of one per caller. Nothing outlives
 * the calls: there is no cache here. A failure goes to the callers of the call that failed; those
 * waiting get a call of their own.
 */
export type SingleFlight<T> = {
  (key: string, work: () => Promise<T>): Promise<T>;
  /**
   * The call for `key` running now, if any: for a caller that can tell whether that call's answer
   * (begun before it asked) is also its own.
   */
  running(key: string): Promise<T> | undefined;
};

export const createSingleFlight = <T>(): SingleFlight<T> => {
  type Flight = { running: Promise<T>; next: Promise<T> | undefined };
  const flights = new Map<string, Flight>();
  const ignore = () => undefined;
  const start = (key: string, work: () => Promise<T>): Promise<T> => {
    const flight: Flight = { running: work(), next: undefined };
    flights.set(key, flight);
    // Attached before any `next` is: with no caller waiting, the key is free again.
    void flight.running.then(ignore, ignore).then(() => {
      if (flights.get(key) === flight && flight.next === undefined) {
        flights.delete(key);
      }
    });

    return flight.running;
  };

  const call = (key: string, work: () => Promise<T>): Promise<T> => {
    const flight = flights.get(key);
    if (flight === undefined) {
      return start(key, work);
    }
    flight.next ??= flight.running.then(ignore, ignore).then(() => start(key, work));

    return flight.next;
  };

  return Object.assign(call, { running: (key: string) => flights.get(key)?.running });
};
