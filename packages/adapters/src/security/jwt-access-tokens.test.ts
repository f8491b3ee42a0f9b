import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  createJwtAccessTokens,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  VERIFIED_TOKENS_KEPT,
} from "./jwt-access-tokens";

const SECRET = "a-test-secret-a-test-secret-a-test-secret-0123";
const claims = { userId: "0193a9b4-0000-7000-8000-000000000001", sessionId: "s-1", role: "member" as const };

describe("JWT access tokens", () => {
  it("verifies its own tokens until exp, also once remembered, and nothing after", async () => {
    const tokens = createJwtAccessTokens(SECRET, 900);
    const issuedAt = new Date("2026-11-23T10:00:00.400Z");
    const { token } = await tokens.issue(claims, issuedAt);
    expect(await tokens.verify(token, issuedAt)).toEqual(claims);
    // Remembered now: the same answers, and exp still decides (exp = iat + 900 s, whole seconds).
    expect(await tokens.verify(token, new Date("2026-11-23T10:14:59.999Z"))).toEqual(claims);
    expect(await tokens.verify(token, new Date("2026-11-23T10:15:00.000Z"))).toBeNull();
    expect(await tokens.verify(token, issuedAt)).toEqual(claims);
    // A fresh issuer (nothing remembered) agrees on the boundary.
    const fresh = createJwtAccessTokens(SECRET, 900);
    expect(await fresh.verify(token, new Date("2026-11-23T10:15:00.000Z"))).toBeNull();
  });

  it("refuses a token changed in any part, signed with another secret, or missing a claim, however often it comes", async () => {
    const tokens = createJwtAccessTokens(SECRET, 900);
    const now = new Date("2026-11-23T10:00:00Z");
    const { token } = await tokens.issue(claims, now);
    expect(await tokens.verify(token, now)).toEqual(claims);
    const [header, payload, signature] = token.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? "", "base64url").toString()), role: "admin" })).toString("base64url")}.${signature}`;
    const other = await createJwtAccessTokens(`${SECRET}-other`, 900).issue(claims, now);
    const noSession = await new SignJWT({ role: "member" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.userId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime("15m")
      .sign(new TextEncoder().encode(SECRET));
    for (const bad of [forged, `${token.slice(0, -2)}AA`, other.token, noSession, "", "a.b.c"]) {
      expect(await tokens.verify(bad, now), bad).toBeNull();
      expect(await tokens.verify(bad, now), bad).toBeNull();
    }
    expect(await tokens.verify(token, now)).toEqual(claims);
  });

  it("remembers a bounded number of tokens and still verifies the ones it let go", async () => {
    const tokens = createJwtAccessTokens(SECRET, 900);
    const now = new Date("2026-11-23T10:00:00Z");
    const first = await tokens.issue(claims, now);
    expect(await tokens.verify(first.token, now)).toEqual(claims);
    for (let i = 0; i < VERIFIED_TOKENS_KEPT + 10; i += 1) {
      const next = await tokens.issue({ ...claims, sessionId: `s-${i + 2}` }, now);
      expect((await tokens.verify(next.token, now))?.sessionId).toBe(`s-${i + 2}`);
    }
    expect(await tokens.verify(first.token, now)).toEqual(claims);
    expect(await tokens.verify(first.token, new Date("2026-11-23T10:15:00Z"))).toBeNull();
  });
});
