import type { EventKind } from "../outbox/event-kind";
import { type MessageSentDeps, messageSent } from "./events/message-sent";

/** The chat area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const chatEvents: ReadonlyArray<EventKind<unknown, MessageSentDeps>> = [messageSent];
