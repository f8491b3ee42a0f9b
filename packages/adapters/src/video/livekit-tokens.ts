import type { VideoTokenIssuer } from "@agora/domain/lifestyle/lifestyle.ports";
import { loadOnce } from "../lazy";

/** The SDK (megabytes of modules) is loaded at the first join. */
const sdk = loadOnce(() => import("livekit-server-sdk"));

/**
 * Participant credentials of a LiveKit-compatible video service: an access token (HS256 JWT with
 * the API key as issuer, `sub` = the user id) granting `roomJoin` in one room, `roomAdmin` for the
 * host. Signed here; the video service is not called.
 */
export const createLiveKitTokens = (video: {
  url: string;
  apiKey: string;
  apiSecret: string;
}): VideoTokenIssuer => ({
  url: video.url,
  async issue({ identity, room, admin, ttlSeconds }) {
    const { AccessToken } = await sdk();
    const token = new AccessToken(video.apiKey, video.apiSecret, { identity, ttl: ttlSeconds });
    token.addGrant({ roomJoin: true, room, canPublish: true, canSubscribe: true, roomAdmin: admin });

    return token.toJwt();
  },
});
