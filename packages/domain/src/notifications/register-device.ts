import type { Actor } from "../shared/actor";
import type { NotificationsDeps } from "./notifications.deps";
import type { Device, DevicePlatform } from "./notifications.types";

/**
 * Registers the caller's device for push. One registration per token: a token already registered
 * (by the caller or by another account, e.g. after a sign-out and a sign-in as someone else on the
 * same phone) moves to the caller, so a device never receives another user's notifications.
 */
export const registerDevice = async (
  { devices, ids, clock }: Pick<NotificationsDeps, "devices" | "ids" | "clock">,
  actor: Actor,
  input: { token: string; platform: DevicePlatform },
): Promise<Device> =>
  devices.upsert({
    id: ids.next(),
    userId: actor.userId,
    token: input.token,
    platform: input.platform,
    at: clock.now(),
  });
