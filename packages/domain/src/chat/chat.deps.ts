import type { Clock } from "../common/clock";
import type { IdGenerator } from "../common/ids";
import type { UnitOfWork } from "../common/unit-of-work";
import type { ObjectStore } from "../media/media.ports";
import type { FilterReportWriter } from "../moderation/content-filter.ports";
import type { ContentScreen } from "../moderation/content-filter-cache";
import type { OutboxWriter } from "../outbox/outbox.ports";
import type { ChatRepositories } from "./chat.ports";

/**
 * What chat use cases take. Every write of text is one statement (atomic on its own); a message
 * with media is sent in a unit of work that also attaches its assets, and its reads sign their URLs
 * with the object store.
 */
export type ChatDeps = {
  repos: ChatRepositories;
  clock: Clock;
  ids: IdGenerator;
  /** Confirms a message's media uploads, and signs their read URLs. */
  objects: ObjectStore;
  uow: UnitOfWork<ChatRepositories & { outbox: OutboxWriter; filterReports: FilterReportWriter }>;
  /** The content filter rules (docs/safety.md, "Filters"): screenText before a write. */
  filters: ContentScreen;
};
