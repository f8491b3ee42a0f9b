import { AppError } from "../common/app-error";

/** The menu item cannot be ordered: absent, inactive, or its listing not public (422). */
export class ItemUnavailableError extends AppError {
  constructor() {
    super("item_unavailable", "This item is not available to order.");
  }
}

/** The version sent is not the order's current one: reload and decide again (409). */
export class OrderConflictError extends AppError {
  constructor() {
    super("order_conflict", "The order was changed; reload it and try again.");
  }
}

/** The requested move is not open from the order's current state (422). */
export class InvalidTransitionError extends AppError {
  constructor(from: string, to: string) {
    super("invalid_transition", `An order that is ${from} cannot become ${to}.`);
  }
}
