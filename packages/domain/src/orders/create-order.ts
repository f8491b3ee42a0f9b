import { AppError, ValidationError } from "../common/app-error";
import {
  type IdempotencyRequest,
  type IdempotentOutcome,
  runIdempotentWrite,
  type SingleWrite,
} from "../common/idempotency";
import { addressBucket, enforceLimit } from "../common/rate-limit";
import { confirmSession } from "../identity/authenticate";
import type { AccessClaims } from "../identity/identity.types";
import type { PublicMenuItem } from "../marketplace/marketplace.types";
import { orderCreated } from "./events/order-created";
import { generateGuestToken, hashGuestToken } from "./guest-access";
import { GUEST_ACCESS_TTL_MS, GUEST_ORDER_WINDOW_SECONDS, type OrdersDeps } from "./orders.deps";
import { ItemUnavailableError } from "./orders.errors";
import type { Order } from "./orders.types";

/**
 * Who places the order: a member, by the claims of a bearer token that checked out (the session is
 * confirmed by the order's write itself), or a guest identified by email and phone.
 */
export type OrderCaller =
  | { member: AccessClaims }
  | { guest: { email: string; phone: string; clientIp: string } };

export type CreateOrderInput = {
  menuItemId: string;
  quantity: number;
  notes?: string | undefined;
  scheduleAt?: Date | undefined;
};

export type CreatedOrder = { order: Order; guestAccessToken: string | undefined };

/** Totals must stay exact as JSON numbers (and so within int64). */
const MAX_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** The guest capability is kept apart, encrypted, when the creation is recorded for replays. */
const guestTokenPart = {
  take: (created: CreatedOrder) => ({
    rest: { order: created.order, guestAccessToken: undefined },
    secret: created.guestAccessToken,
  }),
  put: (created: CreatedOrder, secret: string) => ({ ...created, guestAccessToken: secret }),
};

/**
 * Guests place orders without an account, so nothing else bounds how many one client makes: each
 * guest request counts per client address (IPv6 per /64) and per guest email, replays included,
 * before any other work (429 rate_limited with Retry-After past either).
 */
const limitGuestOrders = async (
  { repos, clock, settings }: Pick<OrdersDeps, "repos" | "clock" | "settings">,
  guest: { email: string; clientIp: string },
): Promise<void> => {
  const now = clock.now();
  const limits = [
    { key: `guest-orders:ip:${addressBucket(guest.clientIp)}`, max: settings.guestOrdersPerIp },
    { key: `guest-orders:email:${guest.email.trim().toLowerCase()}`, max: settings.guestOrdersPerEmail },
  ];
  for (const { key, max } of limits) {
    await enforceLimit(
      repos.rateLimits,
      {
        key,
        max,
        windowSeconds: GUEST_ORDER_WINDOW_SECONDS,
        message: "Too many guest orders; try again later, or sign in.",
      },
      now,
    );
  }
};

/** What an attempt was decided from no longer holds (or is only remembered): read it again. */
class ReadAgain extends Error {}

/** Attempts before giving up on an item that changes under every order (503, nothing recorded). */
const ATTEMPTS = 3;

/**
 * One attempt's decision. `remembered` is the item as a recent order read it (undefined: read it
 * now). A refusal is recorded under the caller's Idempotency-Key, so it is made only from a fresh
 * read and, for a member, a confirmed session; otherwise the attempt asks to read again.
 */
const decide = async (
  deps: OrdersDeps,
  caller: OrderCaller,
  input: CreateOrderInput,
  remembered: PublicMenuItem | undefined,
  sessionConfirmed: boolean,
): Promise<SingleWrite<CreatedOrder>> => {
  const now = deps.clock.now();
  const item = remembered ?? (await deps.repos.menuItems.findPublicById(input.menuItemId, now));
  const total = item ? BigInt(item.priceAmount) * BigInt(input.quantity) : 0n;
  if (!item || total > MAX_AMOUNT) {
    if (remembered || !sessionConfirmed) {
      throw new ReadAgain();
    }
    throw item
      ? new ValidationError([{ path: "quantity", message: "makes the total larger than the largest amount" }])
      : new ItemUnavailableError();
  }
  deps.recentItems.remember(item);
  const member = "member" in caller ? caller.member : undefined;
  const guest = "guest" in caller ? caller.guest : undefined;
  const guestAccessToken = guest ? generateGuestToken() : undefined;
  const order: Order = {
    id: deps.ids.next(),
    customerId: member?.userId ?? null,
    guestEmail: guest?.email ?? null,
    providerId: item.providerId,
    providerUserId: item.providerUserId,
    listingId: item.listingId,
    menuItemId: item.menuItemId,
    itemName: item.name,
    unitPriceAmount: item.priceAmount,
    quantity: input.quantity,
    totalAmount: Number(total),
    currency: item.currency,
    status: "pending",
    paymentStatus: "unpaid",
    version: 1,
    notes: input.notes ?? null,
    scheduleAt: input.scheduleAt ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const event = {
    id: deps.ids.next(),
    ...orderCreated.event(order.id, {
      order_id: order.id,
      provider_user_id: order.providerUserId,
      customer_id: order.customerId,
      item_name: order.itemName,
      quantity: order.quantity,
    }),
  };

  return {
    result: { order, guestAccessToken },
    write: async (record) => {
      const outcome = await deps.repos.orders.place(
        {
          ...order,
          guestPhone: guest?.phone ?? null,
          guestTokenHash: guestAccessToken ? hashGuestToken(guestAccessToken) : null,
          guestTokenExpiresAt: guestAccessToken ? new Date(now.getTime() + GUEST_ACCESS_TTL_MS) : null,
          guestTokenSealed: guestAccessToken ? deps.secrets.seal(guestAccessToken) : null,
        },
        event,
        record,
        member ? { id: member.sessionId, maxAgeSeconds: deps.settings.sessionMaxAgeSeconds } : null,
      );
      if (outcome === "stale") {
        throw new ReadAgain();
      }

      return outcome === "placed";
    },
  };
};

/**
 * Places an order. The server copies provider, listing, item name, unit price and currency from
 * the active menu item of a publicly visible listing (422 item_unavailable otherwise) and computes
 * the total with the multiplication checked. The order, its `order.created` event and the
 * idempotency record are written by one statement, which also checks that what the order was
 * decided from still holds: the item as read (or as a recent order read it, see RecentItems) and
 * the member's session. So the usual order is one round trip, and no transaction stays open across
 * round trips. When the check fails, the session is confirmed (401 if it ended, with nothing
 * recorded under the key) and the item read again. A guest gets a one-time 64-character access
 * capability valid 90 days; a replay of the creation returns it again.
 */
export const createOrder = async (
  deps: OrdersDeps,
  caller: OrderCaller,
  input: CreateOrderInput,
  idempotency: IdempotencyRequest | undefined,
): Promise<IdempotentOutcome<CreatedOrder>> => {
  if ("guest" in caller) {
    await limitGuestOrders(deps, caller.guest);
  }
  const member = "member" in caller ? caller.member : undefined;
  let sessionConfirmed = member === undefined;
  for (let attempt = 1; ; attempt += 1) {
    const remembered = attempt === 1 ? deps.recentItems.get(input.menuItemId) : undefined;
    try {
      return await runIdempotentWrite(
        { ...deps, idempotency: deps.repos.idempotency },
        idempotency,
        () => decide(deps, caller, input, remembered, sessionConfirmed),
        guestTokenPart,
      );
    } catch (error) {
      if (!(error instanceof ReadAgain)) {
        throw error;
      }
      deps.recentItems.forget(input.menuItemId);
      if (attempt === ATTEMPTS) {
        // 503: the HTTP layer adds Retry-After, as it does to every 503.
        throw new AppError("service_unavailable", "The item changed while the order was placed; try again.");
      }
      if (member && !sessionConfirmed) {
        await confirmSession(deps, member);
        sessionConfirmed = true;
      }
    }
  }
};
