import { type Role, roles } from "@agora/domain/common/actor";
import { createBoundedMap } from "@agora/domain/common/bounded-map";
import type { KeyRing } from "@agora/domain/common/derived-keys";
import type { AccessTokenIssuer } from "@agora/domain/identity/identity.ports";
import type { AccessClaims } from "@agora/domain/identity/identity.types";
import { jwtVerify, SignJWT } from "jose";

export const TOKEN_ISSUER = "agora";
export const TOKEN_AUDIENCE = "agora-api";

/** Tokens whose verification is remembered (see createJwtAccessTokens); about 0.5 KiB each. */
export const VERIFIED_TOKENS_KEPT = 4096;

/** A key as WebCrypto's HMAC-SHA256 takes it. */
const hmacKey = (raw: Buffer) =>
  crypto.subtle.importKey("raw", new Uint8Array(raw), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);

/** jose's error for a signature that does not verify under the key tried. */
const SIGNATURE_FAILED = "ERR_JWS_SIGNATURE_VERIFICATION_FAILED";

/**
 * Access tokens: HS256 JWTs signed with the current key of KEY_PURPOSES.accessTokens (derived from
 * TOKEN_SECRET), carrying `sub` (user id), `role`, `sid` (session id), `iat`, `exp`, `iss` and
 * `aud`; all are checked on the way in. A token signed under a previous key of the ring (before
 * the key changed) verifies too: the signature is tried under the current key, then under each
 * previous one (WebCrypto's verify: constant-time), and only a signature failure tries the next.
 *
 * A client sends the same access token with every request for its lifetime, and checking its
 * signature (WebCrypto's HMAC, a job on libuv's thread pool) was a tenth of the CPU time of an
 * order's creation. So the claims of the last VERIFIED_TOKENS_KEPT tokens that verified are
 * remembered by their exact text (the signature is part of the text: another token is another
 * key) until their `exp`, checked on every use as jose checks it; a token that fails is never
 * remembered. What a token cannot tell (a revoked session, a suspended user) is checked per
 * request against the database, as before.
 */
export const createJwtAccessTokens = (keys: KeyRing, ttlSeconds: number): AccessTokenIssuer => {
  const verified = createBoundedMap<string, { claims: AccessClaims; exp: number }>(VERIFIED_TOKENS_KEPT);
  let imported: { current: ReturnType<typeof hmacKey>; previous: ReturnType<typeof hmacKey>[] } | undefined;
  /** The ring's keys as WebCrypto keys, imported once. */
  const cryptoKeys = () =>
    (imported ??= { current: hmacKey(keys.current), previous: keys.previous.map(hmacKey) });
  /** The token's payload, verified under the current key or else the first previous one that holds. */
  const verifyUnderAccepted = async (token: string, now: Date) => {
    const { current, previous } = cryptoKeys();
    let failure: unknown;
    for (const key of [current, ...previous]) {
      try {
        return await jwtVerify(token, await key, {
          algorithms: ["HS256"],
          issuer: TOKEN_ISSUER,
          audience: TOKEN_AUDIENCE,
          currentDate: now,
          requiredClaims: ["sub", "sid", "role", "iat", "exp"],
        });
      } catch (error) {
        if ((error as { code?: unknown }).code !== SIGNATURE_FAILED) {
          throw error;
        }
        failure = error;
      }
    }
    throw failure;
  };

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
        .sign(await cryptoKeys().current);

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
        const { payload } = await verifyUnderAccepted(token, now);
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
