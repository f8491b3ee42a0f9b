import { type Role, roles } from "@agora/domain/common/actor";
import { createBoundedMap } from "@agora/domain/common/bounded-map";
import type { AccessTokenIssuer } from "@agora/domain/identity/identity.ports";
import type { AccessClaims } from "@agora/domain/identity/identity.types";
import { jwtVerify, SignJWT } from "jose";

export const TOKEN_ISSUER = "agora";
export const TOKEN_AUDIENCE = "agora-api";

/** Tokens whose verification is remembered (see createJwtAccessTokens); about 0.5 KiB each. */
export const VERIFIED_TOKENS_KEPT = 4096;

/**
 * Access tokens: HS256 JWTs signed with TOKEN_SECRET, carrying `sub` (user id), `role`, `sid`
 * (session id), `iat`, `exp`, `iss` and `aud`; all are checked on the way in.
 *
 * A client sends the same access token with every request for its lifetime, and checking its
 * signature (WebCrypto's HMAC, a job on libuv's thread pool) was a tenth of the CPU time of an
 * order's creation. So the claims of the last VERIFIED_TOKENS_KEPT tokens that verified are
 * remembered by their exact text (the signature is part of the text: another token is another
 * key) until their `exp`, checked on every use as jose checks it; a token that fails is never
 * remembered. What a token cannot tell (a revoked session, a suspended user) is checked per
 * request against the database, as before.
 */
export const createJwtAccessTokens = (secret: string, ttlSeconds: number): AccessTokenIssuer => {
  const verified = createBoundedMap<string, { claims: AccessClaims; exp: number }>(VERIFIED_TOKENS_KEPT);
  let key: ReturnType<typeof crypto.subtle.importKey> | undefined;
  const signingKey = () =>
    (key ??= crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    ));

  return {
    async issue(claims: AccessClaims, now: Date) {
      const issuedAt = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ role: claims.role, sid: claims.sessionId })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(claims.userId)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(await signingKey());

      return { token, expiresIn: ttlSeconds };
    },

    async verify(token: string, now: Date) {
      const seconds = Math.floor(now.getTime() / 1000);
      const known = verified.get(token);
      if (known !== undefined) {
        if (known.exp > seconds) {
          return known.claims;
        }
        verified.delete(token);

        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await signingKey(), {
          algorithms: ["HS256"],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          currentDate: now,
          requiredClaims: ["sub", "sid", "role", "iat", "exp"],
        });
        const { sub, sid, role, exp } = payload;
        if (
          typeof sub !== "string" ||
          typeof sid !== "string" ||
          !roles.includes(role as Role) ||
          typeof exp !== "number"
        ) {
          return null;
        }
        const claims = Object.freeze({ userId: sub, sessionId: sid, role: role as Role });
        verified.set(token, { claims, exp });

        return claims;
      } catch {
        return null;
      }
    },
  };
};
