/**
 * Thrown by a delivery handler for an event that can never be delivered (a malformed payload):
 * the event is dead-lettered at once instead of backing off ten times.
 */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentDeliveryError";
  }
}
