import type { Actor } from "../common/actor";
import { ValidationError } from "../common/app-error";
import { DEVICE_PROOF_KIND, deviceProof, isDeviceProofValid } from "./device-proof";
import { DEVICES_PER_USER, type NotificationsDeps } from "./notifications.deps";
import type { Device, DevicePlatform } from "./notifications.types";

export type DeviceRegistration = { status: "registered"; device: Device } | { status: "proof_sent" };

/**
 * Registers the caller's device for push, bound to the caller's session (pushes go only to
 * registrations of live sessions). One registration per token:
 * - a new token, or the caller's own, is registered at once;
 * - a token registered by a session that has ended (the previous user signed out on that phone)
 *   moves to the caller at once;
 * - a token another user's live session holds moves only with `proof`: without it the service
 *   sends that token a data push carrying the proof and answers "proof_sent"; the app, if the push
 *   reaches it, registers again with the proof. Someone who merely knows a token cannot take it,
 *   so nobody can silence another user's pushes. A wrong or stale proof is 422.
 * The user keeps at most DEVICES_PER_USER registrations; the least recently registered go first.
 */
export const registerDevice = async (
  { devices, ids, clock, push, deviceProofKey }: Omit<NotificationsDeps, "notifications">,
  actor: Actor,
  input: { token: string; platform: DevicePlatform; proof?: string | undefined },
): Promise<DeviceRegistration> => {
  const now = clock.now();
  if (
    input.proof !== undefined &&
    !isDeviceProofValid(deviceProofKey, actor.userId, input.token, input.proof, now)
  ) {
    throw new ValidationError([{ path: "proof", message: "is wrong or expired; register again without it" }]);
  }
  const registered = await devices.register(
    {
      id: ids.next(),
      userId: actor.userId,
      sessionId: actor.sessionId,
      token: input.token,
      platform: input.platform,
      at: now,
    },
    { takeOver: input.proof !== undefined },
  );
  if (registered === "held") {
    // Best effort: with push off, or a failing provider, no proof arrives and the token stays put.
    await push
      ?.send([input.token], {
        data: {
          kind: DEVICE_PROOF_KIND,
          proof: deviceProof(deviceProofKey.current, actor.userId, input.token, now),
        },
      })
      .catch(() => undefined);

    return { status: "proof_sent" };
  }
  await devices.trimUser(actor.userId, DEVICES_PER_USER);

  return { status: "registered", device: registered };
};
