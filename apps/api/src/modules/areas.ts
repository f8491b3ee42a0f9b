// Every area's registration, in the order their handlers are mounted. An area's routes, admin
// kinds and descriptions are its `<area>.area.ts`; its outbox event kinds are the domain's
// `<area>/<area>.events.ts`, which the outbox worker (@agora/outbox-worker) delivers.
import type { AppDeps } from "../deps";
import { administrationArea } from "./administration/administration.area";
import type { Area } from "./area";
import { chatArea } from "./chat/chat.area";
import { communityArea } from "./community/community.area";
import { identityArea } from "./identity/identity.area";
import { lifestyleArea } from "./lifestyle/lifestyle.area";
import { marketplaceArea } from "./marketplace/marketplace.area";
import { mediaArea } from "./media/media.area";
import { moderationArea } from "./moderation/moderation.area";
import { notificationsArea } from "./notifications/notifications.area";
import { ordersArea } from "./orders/orders.area";
import { paymentsArea } from "./payments/payments.area";
import { systemArea } from "./system/system.area";

/** Every area's registration: its handlers, admin kinds and descriptions (see modules/area.ts). */
export const areas: readonly Area<AppDeps>[] = [
  systemArea,
  identityArea,
  marketplaceArea,
  ordersArea,
  paymentsArea,
  notificationsArea,
  communityArea,
  lifestyleArea,
  mediaArea,
  chatArea,
  moderationArea,
  administrationArea,
];
