import type { AdminOrderDto } from "@agora/contracts/orders.admin";
import type { Order } from "@agora/domain/orders/orders.types";
import { toOrderDto } from "./orders.presenter";

export const toAdminOrderDto = (order: Order): AdminOrderDto => ({
  ...toOrderDto(order),
  guest_email: order.guestEmail,
});
