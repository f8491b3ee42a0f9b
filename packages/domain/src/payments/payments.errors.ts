import { AppError } from "../common/app-error";

/** A payment that changed meanwhile, is not in a state that allows the request, or duplicates an open one (409). */
export class PaymentConflictError extends AppError {
  constructor(message = "The payment was changed or is not in a state that allows this; reload it.") {
    super("payment_conflict", message);
  }
}

/** No listing plan is configured (422). */
export class PlanUnavailableError extends AppError {
  constructor() {
    super("plan_unavailable", "No listing subscription plan is offered.");
  }
}
