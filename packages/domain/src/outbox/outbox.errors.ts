/**
 * Thrown for an event that can never be delivered (an unknown kind, a payload its kind's schema
 * refuses): the event is dead-lettered at once instead of backing off ten times, and kept.
 */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentDeliveryError";
  }
}
