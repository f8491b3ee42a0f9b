import { isIPv4, isIPv6 } from "node:net";
import { RateLimitedError } from "./app-error";

/**
 * Fixed-window counters shared by every process. `hit` counts one event against `key` and says
 * whether it is still within `limit` for the window of `windowSeconds` that contains it.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitResult>;
  /**
   * How many events each of `keys` has in its current window (and when it ends), without counting
   * one; in the order of `keys`, in one round trip.
   */
  peek(
    keys: readonly string[],
    windowSeconds: number,
    now: Date,
  ): Promise<Array<{ hits: number; retryAfterSeconds: number }>>;
  reset(key: string): Promise<void>;
}

export type RateLimitResult = { allowed: boolean; hits: number; retryAfterSeconds: number };

const ipv4Groups = (dotted: string): string[] | undefined => {
  const octets = dotted.split(".").map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet) || octet < 0 || octet > 255)) {
    return undefined;
  }
  const [a = 0, b = 0, c = 0, d = 0] = octets;

  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};

/** The eight groups of an IPv6 address (zone dropped, `::` and a dotted tail expanded), lower-case. */
const ipv6Groups = (address: string): string[] | undefined => {
  const [text = ""] = address.split("%");
  const halves = text.split("::");
  if (halves.length > 2) {
    return undefined;
  }
  const parse = (part: string): string[] | undefined => {
    if (part === "") {
      return [];
    }
    const groups: string[] = [];
    for (const group of part.split(":")) {
      const expanded = group.includes(".") ? ipv4Groups(group) : [group];
      if (!expanded) {
        return undefined;
      }
      groups.push(...expanded);
    }

    return groups;
  };
  const head = parse(halves[0] ?? "");
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : [];
  if (!head || !tail) {
    return undefined;
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) {
    return undefined;
  }
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) {
    return undefined;
  }

  return groups.map((group) => Number.parseInt(group, 16).toString(16));
};

/**
 * The bucket a client address is counted in by per-IP limits. IPv4 counts per address. IPv6
 * counts per /64: one subscriber usually holds a whole /64, so counting single addresses would
 * give an attacker 2^64 fresh buckets. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a
 * dual-stack socket reports IPv4 peers) counts as its IPv4 address. Anything else is used as is.
 */
export const addressBucket = (address: string): string => {
  if (!address.includes(":")) {
    return address;
  }
  const groups = ipv6Groups(address.trim());
  if (!groups) {
    return address;
  }
  if (groups.slice(0, 5).every((group) => group === "0") && groups[5] === "ffff") {
    const high = Number.parseInt(groups[6] ?? "0", 16);
    const low = Number.parseInt(groups[7] ?? "0", 16);

    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }

  return `${groups.slice(0, 4).join(":")}::/64`;
};

/**
 * The network of a client address, never the address itself: an IPv4 address's /24
 * (`192.0.2.0/24`), an IPv6 address's /48 (`2001:db8:85a3::/48`; an IPv4-mapped one as its IPv4
 * /24). What a member's session list shows and what a new sign-in is compared by; null for
 * anything that is not an IP address (a test's "unknown").
 */
export const addressPrefix = (address: string): string | null => {
  const [text = ""] = address.trim().split("%");
  if (isIPv4(text)) {
    return `${text.split(".").slice(0, 3).map(Number).join(".")}.0/24`;
  }
  const groups = isIPv6(text) ? ipv6Groups(text) : undefined;
  if (!groups) {
    return null;
  }
  if (groups.slice(0, 5).every((group) => group === "0") && groups[5] === "ffff") {
    return addressPrefix(addressBucket(text));
  }

  return `${groups.slice(0, 3).join(":")}::/48`;
};

/**
 * Counts one request against `key` and throws 429 rate_limited (with Retry-After) once `limit`
 * is passed within the window. A limit of 0 turns the check off.
 */
export const enforceLimit = async (
  rateLimits: RateLimiter,
  limit: { key: string; max: number; windowSeconds: number; message: string },
  now: Date,
): Promise<void> => {
  if (limit.max <= 0) {
    return;
  }
  const result = await rateLimits.hit(limit.key, limit.max, limit.windowSeconds, now);
  if (!result.allowed) {
    throw new RateLimitedError(result.retryAfterSeconds, limit.message);
  }
};
