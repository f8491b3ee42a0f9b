import type { EventKind } from "../outbox/event-kind";
import { codeRequested } from "./events/code-requested";
import { codesLocked } from "./events/codes-locked";
import { loginFailures } from "./events/login-failures";
import type { IdentityMailDeps } from "./identity.deps";

/** The identity area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const identityEvents: ReadonlyArray<EventKind<unknown, IdentityMailDeps>> = [
  codeRequested,
  codesLocked,
  loginFailures,
];
