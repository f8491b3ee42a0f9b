import { describe, expect, it } from "vitest";
import { addressBucket, addressPrefix } from "./rate-limit";

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

describe("addressPrefix", () => {
  it("keeps an IPv4 address's /24 and nothing of the host", () => {
    expect(addressPrefix("203.0.113.9")).toBe("203.0.113.0/24");
    expect(addressPrefix(" 10.1.2.254 ")).toBe("10.1.2.0/24");
  });

  it("keeps an IPv6 address's /48, compressed or not, zone dropped", () => {
    expect(addressPrefix("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe("2001:db8:85a3::/48");
    expect(addressPrefix("2001:0DB8:0000::1%eth0")).toBe("2001:db8:0::/48");
    expect(addressPrefix("::1")).toBe("0:0:0::/48");
  });

  it("takes an IPv4-mapped IPv6 address as its IPv4 /24", () => {
    expect(addressPrefix("::ffff:192.0.2.77")).toBe("192.0.2.0/24");
  });

  it("is null for what is no address", () => {
    expect(addressPrefix("unknown")).toBeNull();
    expect(addressPrefix("1.2.3")).toBeNull();
    expect(addressPrefix("999.1.1.1")).toBeNull();
    expect(addressPrefix("")).toBeNull();
  });
});
