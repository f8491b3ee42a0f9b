import { newSignIn, passwordChanged } from "./events/account-notices";
import { codeRequested } from "./events/code-requested";
import { codesLocked } from "./events/codes-locked";
import { emailChanged } from "./events/email-changed";
import { exportExpired } from "./events/export-expired";
import { exportRequested } from "./events/export-requested";
import { loginFailures } from "./events/login-failures";

/** The identity area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const identityEvents = [
  codeRequested,
  codesLocked,
  loginFailures,
  passwordChanged,
  newSignIn,
  exportRequested,
  exportExpired,
  emailChanged,
] as const;
