import type { ChatFanOut } from "@agora/domain/chat/chat.ports";
import type { RealtimeFanOutFigures } from "../../../http/metrics";

/** REALTIME_FANOUT: PostgreSQL's LISTEN (PGlite's in-process notifications when embedded) or NATS. */
export type FanOutMode = "postgres" | "nats";

/** What `/ready` says of the fan-out. */
export type FanOutStatus = { mode: FanOutMode; connected: boolean };

export type FanOutWatch = {
  /** Remembers the fan-out the realtime server opens (the one it listens on), and hands it back. */
  track(fanOut: ChatFanOut): ChatFanOut;
  /** Not connected until the realtime server opened and started its fan-out. */
  status(): FanOutStatus;
  /** For /metrics: nothing before the realtime server opened its fan-out (nothing to be connected yet). */
  figures(): RealtimeFanOutFigures | undefined;
};

/**
 * The realtime fan-out as an operator sees it. The realtime server opens its fan-out when it starts
 * (after the database answered), so the watch reads whichever one it opened last.
 */
export const createFanOutWatch = (mode: FanOutMode): FanOutWatch => {
  let current: ChatFanOut | undefined;

  return {
    track(fanOut) {
      current = fanOut;

      return fanOut;
    },
    status: () => ({ mode, connected: current?.state().connected ?? false }),
    figures() {
      const state = current?.state();

      return state && { mode, ...state };
    },
  };
};
