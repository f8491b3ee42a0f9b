import { KEY_PURPOSES, keyRing } from "@agora/domain/common/derived-keys";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  createJwtAccessTokens,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  VERIFIED_TOKENS_KEPT,
} from "./jwt-access-tokens";

const SECRET = "a-test-secret-a-test-secret-a-test-secret-0123";
const KEYS = keyRing(SECRET, KEY_PURPOSES.accessTokens);
const claims = { userId: "0193a9b4-0000-7000-8000-000000000001", sessionId: "s-1", role: "member" as const };

describe("JWT access tokens", () => {
  it("verifies its own tokens until exp, also once remembered, and nothing after", async () => {
    const tokens = createJwtAccessTokens(KEYS, 900);
    const issuedAt = new Date("2026-11-23T10:00:00.400Z");
    const { token } = await tokens.issue(claims, issuedAt);
    expect(await tokens.verify(token, issuedAt)).toEqual(claims);
    // Remembered now: the same answers, and exp still decides (exp = iat + 900 s, whole seconds).
    expect(await tokens.verify(token, new Date("2026-11-23T10:14:59.999Z"))).toEqual(claims);
    expect(await tokens.verify(token, new Date("2026-11-23T10:15:00.000Z"))).toBeNull();
    expect(await tokens.verify(token, issuedAt)).toEqual(claims);
    // A fresh issuer (nothing remembered) agrees on the boundary.
    const fresh = createJwtAccessTokens(KEYS, 900);
    expect(await fresh.verify(token, new Date("2026-11-23T10:15:00.000Z"))).toBeNull();
  });

  it("refuses a token changed in any part, signed with another secret, or missing a claim, however often it comes", async () => {
    const tokens = createJwtAccessTokens(KEYS, 900);
    const now = new Date("2026-11-23T10:00:00Z");
    const { token } = await tokens.issue(claims, now);
    expect(await tokens.verify(token, now)).toEqual(claims);
    const [header, payload, signature] = token.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? "", "base64url").toString()), role: "admin" })).toString("base64url")}.${signature}`;
    const other = await createJwtAccessTokens(
      keyRing(`${SECRET}-other`, KEY_PURPOSES.accessTokens),
      900,
    ).issue(claims, now);
    const noSession = await new SignJWT({ role: "member" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.userId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime("15m")
      .sign(new Uint8Array(KEYS.current));
    for (const bad of [forged, `${token.slice(0, -2)}AA`, other.token, noSession, "", "a.b.c"]) {
      expect(await tokens.verify(bad, now), bad).toBeNull();
      expect(await tokens.verify(bad, now), bad).toBeNull();
    }
    expect(await tokens.verify(token, now)).toEqual(claims);
  });

  it("signs under the ring's current key only, and verifies a token signed under a previous one until its exp", async () => {
    const current = Buffer.alloc(32, 1);
    const previous = Buffer.alloc(32, 2);
    const tokens = createJwtAccessTokens({ current, previous: [previous] }, 900);
    const now = new Date("2026-11-23T10:00:00Z");
    const older = await createJwtAccessTokens({ current: previous, previous: [] }, 900).issue(claims, now);
    expect(await tokens.verify(older.token, now)).toEqual(claims);
    expect(await tokens.verify(older.token, new Date("2026-11-23T10:15:00Z"))).toBeNull();
    expect(await createJwtAccessTokens({ current, previous: [] }, 900).verify(older.token, now)).toBeNull();
    const stranger = await createJwtAccessTokens({ current: Buffer.alloc(32, 3), previous: [] }, 900).issue(
      claims,
      now,
    );
    expect(await tokens.verify(stranger.token, now)).toBeNull();

    const { token } = await tokens.issue(claims, now);
    expect(await createJwtAccessTokens({ current, previous: [] }, 900).verify(token, now)).toEqual(claims);
    expect(
      await createJwtAccessTokens({ current: previous, previous: [] }, 900).verify(token, now),
    ).toBeNull();
  });

  it("remembers a bounded number of tokens and still verifies the ones it let go", async () => {
    const tokens = createJwtAccessTokens(KEYS, 900);
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
