import { messageSent } from "./events/message-sent";

/** The chat area's outbox event kinds (registered in event-kinds.ts, delivered by the worker). */
export const chatEvents = [messageSent] as const;
