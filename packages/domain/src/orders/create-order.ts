import type { Actor } from "../shared/actor";
import { ValidationError } from "../shared/app-error";
import { type IdempotencyRequest, type IdempotentOutcome, runIdempotentWrite } from "../shared/idempotency";
import { addressBucket, enforceLimit } from "../shared/rate-limit";
import { orderCreated } from "./events/order-created";
import { generateGuestToken, hashGuestToken } from "./guest-access";
import { GUEST_ACCESS_TTL_MS, GUEST_ORDER_WINDOW_SECONDS, type OrdersDeps } from "./orders.deps";
import { ItemUnavailableError } from "./orders.errors";
import type { Order } from "./orders.types";

/** Who places the order: a signed-in member, or a guest identified by email and phone. */
export type OrderCaller = { actor: Actor } | { guest: { email: string; phone: string; clientIp: string } };

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

/**
 * Places an order. The server copies provider, listing, item name, unit price and currency from
 * the active menu item of a publicly visible listing (422 item_unavailable otherwise) and computes
 * the total with the multiplication checked. The order, its `order.created` event and the
 * idempotency record are written by one statement, after the one read of the item: no transaction
 * stays open across round trips (under READ COMMITTED one would not hold the item either). A guest gets a one-time 64-character access capability
 * valid 90 days; a replay of the creation returns it again.
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

  return runIdempotentWrite(
    { ...deps, idempotency: deps.repos.idempotency },
    idempotency,
    async () => {
      const now = deps.clock.now();
      const item = await deps.repos.menuItems.findPublicById(input.menuItemId, now);
      if (!item) {
        throw new ItemUnavailableError();
      }
      const total = BigInt(item.priceAmount) * BigInt(input.quantity);
      if (total > MAX_AMOUNT) {
        throw new ValidationError([
          { path: "quantity", message: "makes the total larger than the largest amount" },
        ]);
      }
      const guest = "guest" in caller ? caller.guest : undefined;
      const guestAccessToken = guest ? generateGuestToken() : undefined;
      const order: Order = {
        id: deps.ids.next(),
        customerId: "actor" in caller ? caller.actor.userId : null,
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
        write: (record) =>
          deps.repos.orders.place(
            {
              ...order,
              guestPhone: guest?.phone ?? null,
              guestTokenHash: guestAccessToken ? hashGuestToken(guestAccessToken) : null,
              guestTokenExpiresAt: guestAccessToken ? new Date(now.getTime() + GUEST_ACCESS_TTL_MS) : null,
            },
            event,
            record,
          ),
      };
    },
    guestTokenPart,
  );
};
