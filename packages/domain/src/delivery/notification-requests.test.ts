import { describe, expect, it } from "vitest";
import { PermanentDeliveryError } from "./delivery.errors";
import { notificationId, notificationRequestsOf } from "./notification-requests";

const userId = "0196a0c4-7a55-7d2b-9f3e-1c2d3e4f5a6b";
const eventId = "0196a0c4-7a55-7d2b-9f3e-aaaaaaaaaaaa";

describe("notificationId", () => {
  it("is the same UUID for the same event and recipient, and differs for another recipient or event", () => {
    const id = notificationId(eventId, userId);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(notificationId(eventId, userId)).toBe(id);
    expect(notificationId(eventId, userId.replace(/b$/, "c"))).not.toBe(id);
    expect(notificationId(eventId.replace(/a$/, "b"), userId)).not.toBe(id);
  });
});

describe("notificationRequestsOf", () => {
  it("reads nothing from a payload without notifications", () => {
    expect(notificationRequestsOf({ orderId: "x" })).toEqual([]);
    expect(notificationRequestsOf({ notifications: null })).toEqual([]);
  });

  it("reads each entry with its optional data", () => {
    expect(
      notificationRequestsOf({
        notifications: [
          { userId, kind: "order.created", title: "New order", body: "2 × Tea", data: { order_id: "o1" } },
          { userId: userId.toUpperCase(), kind: "order.created", title: "", body: "" },
        ],
      }),
    ).toEqual([
      { userId, kind: "order.created", title: "New order", body: "2 × Tea", data: { order_id: "o1" } },
      { userId, kind: "order.created", title: "", body: "" },
    ]);
  });

  it.each([
    [{ notifications: "x" }, "must be an array"],
    [{ notifications: [null] }, "must be an object"],
    [{ notifications: [{ userId: "nope", kind: "k", title: "t", body: "b" }] }, "userId must be a UUID"],
    [{ notifications: [{ userId, kind: "", title: "t", body: "b" }] }, "kind must be a string"],
    [{ notifications: [{ userId, kind: "k", title: 1, body: "b" }] }, "title must be a string"],
    [{ notifications: [{ userId, kind: "k", title: "t", body: "b", data: [1] }] }, "data must be an object"],
  ])("refuses a malformed payload %j as permanently undeliverable", (payload, message) => {
    expect(() => notificationRequestsOf(payload)).toThrow(PermanentDeliveryError);
    expect(() => notificationRequestsOf(payload)).toThrow(message);
  });
});
