import type { PushMessage, PushSender } from "@agora/domain/notifications/notifications.ports";

export type SentPush = { tokens: string[]; message: PushMessage };

/** Thrown by the memory adapter when told to fail: stands for a provider outage. */
export class PushUnavailableError extends Error {
  constructor(message = "push provider unavailable") {
    super(message);
    this.name = "PushUnavailableError";
  }
}

export type MemoryPush = PushSender & {
  /** Every accepted send, in order. */
  readonly sent: SentPush[];
  /** How many sends failed (threw) so far. */
  readonly failures: number;
  /** Sends that went to `token`. */
  sentTo(token: string): SentPush[];
  /** The next `count` sends throw PushUnavailableError. */
  failNext(count: number): void;
  /** Every send throws until called again with false. */
  failAll(on?: boolean): void;
  /** Tokens the adapter reports invalid (as FCM does for an uninstalled app). */
  markInvalid(...tokens: string[]): void;
  clear(): void;
};

/** Push for tests and development: records what would have been sent; can be told to fail. */
export const createMemoryPush = (): MemoryPush => {
  const sent: SentPush[] = [];
  const invalid = new Set<string>();
  let failing = 0;
  let failingAll = false;
  let failures = 0;

  return {
    async send(tokens, message) {
      if (failingAll || failing > 0) {
        failing = Math.max(0, failing - 1);
        failures += 1;
        throw new PushUnavailableError();
      }
      sent.push({ tokens: [...tokens], message });

      return { invalidTokens: tokens.filter((token) => invalid.has(token)) };
    },
    sent,
    get failures() {
      return failures;
    },
    sentTo: (token) => sent.filter((push) => push.tokens.includes(token)),
    failNext(count) {
      failing = count;
    },
    failAll(on = true) {
      failingAll = on;
    },
    markInvalid(...tokens) {
      for (const token of tokens) {
        invalid.add(token);
      }
    },
    clear() {
      sent.length = 0;
      invalid.clear();
      failing = 0;
      failingAll = false;
      failures = 0;
    },
  };
};
