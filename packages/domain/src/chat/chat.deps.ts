import type { Clock } from "../shared/clock";
import type { IdGenerator } from "../shared/ids";
import type { ChatRepositories } from "./chat.ports";

/**
 * What chat use cases take. Every write is one statement (atomic on its own), so chat needs no
 * unit of work.
 */
export type ChatDeps = {
  repos: ChatRepositories;
  clock: Clock;
  ids: IdGenerator;
};
