import { AppError } from "../common/app-error";

/** 409 conflict: a rule with the same match and normalized value exists. */
export class ContentFilterConflictError extends AppError {
  constructor() {
    super("conflict", "A rule with this match and value exists.", {
      details: [{ path: "value", message: "a rule with this match and value exists" }],
    });
  }
}
