import type { ChannelGrant } from "@agora/domain/chat/open-channel";
import type { RealtimeSocketLimits } from "@agora/process/config";

/** The cap a socket was refused at: its session's on the conversation, its session's, its user's. */
export type CapRefusal = "conversation" | "session" | "user";

/** The place one socket holds within the caps; released once (the socket closed, or never opened). */
export type SocketPlace = { release(): void };

/**
 * Counts the sockets this process holds (or is about to open) per session and conversation, per
 * session and per user. Counting is synchronous, so two upgrades racing for the last place cannot
 * both take it. The counts are this process's: with N processes behind a balancer a user may hold
 * up to N times a cap (docs/configuration.md says why that is the trade).
 */
export const createSocketCaps = (limits: RealtimeSocketLimits) => {
  const counts = new Map<string, number>();
  let held = 0;
  const count = (key: string) => counts.get(key) ?? 0;
  const move = (key: string, by: 1 | -1) => {
    const next = count(key) + by;
    if (next === 0) {
      counts.delete(key);
    } else {
      counts.set(key, next);
    }
  };

  return {
    /** Places held: open sockets and upgrades under way. */
    get held() {
      return held;
    },
    /** Whether the process holds more places than `limits.max` (the newest one must go). */
    get overfull() {
      return held > limits.max;
    },
    /** A place for the grant's socket, or the cap that refuses it. */
    take(grant: ChannelGrant): SocketPlace | CapRefusal {
      const keys = [
        `c ${grant.sessionId} ${grant.conversationId}`,
        `s ${grant.sessionId}`,
        `u ${grant.userId}`,
      ] as const;
      if (count(keys[0]) >= limits.perConversation) {
        return "conversation";
      }
      if (count(keys[1]) >= limits.perSession) {
        return "session";
      }
      if (count(keys[2]) >= limits.perUser) {
        return "user";
      }
      for (const key of keys) {
        move(key, 1);
      }
      held += 1;
      let released = false;

      return {
        release() {
          if (released) {
            return;
          }
          released = true;
          for (const key of keys) {
            move(key, -1);
          }
          held -= 1;
        },
      };
    },
  };
};
