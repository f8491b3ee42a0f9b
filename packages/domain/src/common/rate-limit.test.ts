import { describe, expect, it } from "vitest";
import { addressBucket } from "./rate-limit";

describe("addressBucket", () => {
  it("keeps IPv4 addresses and unknown strings as they are", () => {
    expect(addressBucket("203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket("unknown")).toBe("unknown");
  });

  it("counts IPv6 per /64, whatever the spelling of the address", () => {
    const bucket = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:DB8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:db8:1:2:0:0:0:0",
      "2001:db8:1:2::a%eth0",
    ]) {
      expect(addressBucket(address), address).toBe(bucket);
    }
    expect(addressBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(addressBucket("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressBucket("::ffff:c000:207")).toBe("192.0.2.7");
  });

  it("leaves what is not an address alone", () => {
    expect(addressBucket("1:2:3")).toBe("1:2:3");
    expect(addressBucket("1::2::3")).toBe("1::2::3");
    expect(addressBucket("zz::1")).toBe("zz::1");
  });
});
