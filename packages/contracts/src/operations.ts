import { administrationOperations } from "./administration";
import { chatOperations } from "./chat";
import { communityOperations } from "./community";
import { communityAdminOperations } from "./community.admin";
import { identityOperations } from "./identity";
import { identityAdminOperations } from "./identity.admin";
import { lifestyleOperations } from "./lifestyle";
import { lifestyleAdminOperations } from "./lifestyle.admin";
import { marketplaceOperations } from "./marketplace";
import { marketplaceAdminOperations } from "./marketplace.admin";
import { mediaOperations } from "./media";
import { moderationAdminOperations } from "./moderation.admin";
import { notificationsOperations } from "./notifications";
import type { Operation } from "./operation";
import { ordersOperations } from "./orders";
import { ordersAdminOperations } from "./orders.admin";
import { paymentsOperations } from "./payments";
import { paymentsAdminOperations } from "./payments.admin";
import { reportsOperations } from "./reports";
import { reportsAdminOperations } from "./reports.admin";
import { systemOperations } from "./system";

/**
 * Every operation of the API, in the order the OpenAPI document lists them: the member surface by
 * area, then the admin surface. The one route table: the server mounts it, the tests enumerate it.
 * Not for the mobile app (it holds the admin operations; use `@agora/contracts/client`).
 */
export const operations: readonly Operation[] = [
  systemOperations,
  identityOperations,
  marketplaceOperations,
  ordersOperations,
  paymentsOperations,
  notificationsOperations,
  communityOperations,
  reportsOperations,
  lifestyleOperations,
  mediaOperations,
  chatOperations,
  identityAdminOperations,
  marketplaceAdminOperations,
  ordersAdminOperations,
  paymentsAdminOperations,
  lifestyleAdminOperations,
  communityAdminOperations,
  reportsAdminOperations,
  moderationAdminOperations,
  administrationOperations,
].flatMap((group) => Object.values(group));
