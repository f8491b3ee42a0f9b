import { createHash, randomBytes } from "node:crypto";
import type { Actor } from "../shared/actor";
import { ValidationError } from "../shared/app-error";
import { isUuid } from "../shared/ids";
import { type IdempotencyRequest, type IdempotentOutcome, runIdempotent } from "./idempotency";
import { GUEST_ACCESS_TTL_MS, type OrdersDeps } from "./orders.deps";
import { ItemUnavailableError } from "./orders.errors";
import type { StoredResponse } from "./orders.ports";
import type { Order } from "./orders.types";

/** Who places the order: a signed-in member, or a guest identified by email and phone. */
export type OrderCaller = { actor: Actor } | { guest: { email: string; phone: string } };

export type CreateOrderInput = {
  menuItemId: string;
  quantity: number;
  notes?: string | undefined;
  scheduleAt?: Date | undefined;
};

export type CreatedOrder = { order: Order; guestAccessToken: string | undefined };

/** Totals must stay exact as JSON numbers (and so within int64). */
const MAX_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** The guest capability: 32 random bytes as 64 hex characters; only its SHA-256 is stored. */
export const hashGuestToken = (token: string): string => createHash("sha256").update(token).digest("hex");

/**
 * Places an order. The server copies provider, listing, item name, unit price and currency from
 * the active menu item of a publicly visible listing (422 item_unavailable otherwise) and computes
 * the total with the multiplication checked. The order, its `order.created` event (notifying the
 * provider, and the customer when a member) and the idempotency record commit together. A guest
 * gets a one-time 64-character access capability valid 90 days.
 */
export const createOrder = (
  deps: OrdersDeps,
  caller: OrderCaller,
  input: CreateOrderInput,
  idempotency: IdempotencyRequest | undefined,
  responders: {
    toResponse: (created: CreatedOrder) => StoredResponse;
    errorResponse: (error: unknown) => StoredResponse | undefined;
  },
): Promise<IdempotentOutcome<CreatedOrder>> =>
  runIdempotent(
    deps,
    idempotency,
    async (tx) => {
      const now = deps.clock.now();
      const item = isUuid(input.menuItemId) ? await tx.orders.findOrderableItem(input.menuItemId, now) : null;
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
      const guestAccessToken = guest ? randomBytes(32).toString("hex") : undefined;
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
      await tx.orders.create({
        ...order,
        guestPhone: guest?.phone ?? null,
        guestTokenHash: guestAccessToken ? hashGuestToken(guestAccessToken) : null,
        guestTokenExpiresAt: guestAccessToken ? new Date(now.getTime() + GUEST_ACCESS_TTL_MS) : null,
      });
      const summary = `${order.quantity} × ${order.itemName}`;
      const notifications = [
        {
          userId: order.providerUserId,
          kind: "order.created",
          title: "New order",
          body: summary,
          data: { order_id: order.id },
        },
        ...(order.customerId
          ? [
              {
                userId: order.customerId,
                kind: "order.created",
                title: "Order placed",
                body: summary,
                data: { order_id: order.id },
              },
            ]
          : []),
      ];
      await tx.outbox.append(
        { kind: "order.created", aggregateType: "order", aggregateId: order.id, payload: { notifications } },
        now,
      );

      return { order, guestAccessToken };
    },
    responders,
  );
