import type { AccessTokenIssuer } from "@agora/domain/identity/identity.ports";
import type { AccessClaims } from "@agora/domain/identity/identity.types";
import { type Role, roles } from "@agora/domain/shared/actor";
import { jwtVerify, SignJWT } from "jose";

export const TOKEN_ISSUER = "agora";
export const TOKEN_AUDIENCE = "agora-api";

/**
 * Access tokens: HS256 JWTs signed with TOKEN_SECRET, carrying `sub` (user id), `role`, `sid`
 * (session id), `iat`, `exp`, `iss` and `aud`; all are checked on the way in.
 */
export const createJwtAccessTokens = (secret: string, ttlSeconds: number): AccessTokenIssuer => {
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
      try {
        const { payload } = await jwtVerify(token, await signingKey(), {
          algorithms: ["HS256"],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          currentDate: now,
          requiredClaims: ["sub", "sid", "role", "iat", "exp"],
        });
        const { sub, sid, role } = payload;
        if (typeof sub !== "string" || typeof sid !== "string" || !roles.includes(role as Role)) {
          return null;
        }

        return { userId: sub, sessionId: sid, role: role as Role };
      } catch {
        return null;
      }
    },
  };
};
