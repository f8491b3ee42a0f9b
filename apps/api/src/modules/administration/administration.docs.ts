import {
  adminCollections,
  type administrationOperations,
  reportExportColumns,
} from "@agora/contracts/administration";
import type { DescriptionsOf } from "../../http/operations";

/** The administration operations' OpenAPI descriptions, by operationId. */
export const administrationDescriptions = {
  adminOverview:
    "`marketplace.users_by_status` and `listings_by_status` count users and listings per status (a status with " +
    "none is absent); `providers` counts provider profiles pending and approved; `orders_awaiting_action` counts " +
    "orders still `pending` (the provider has not confirmed); `payments_awaiting_review` counts payments " +
    "submitted and undecided. `moderation.open_reports` counts reports `open` or `reviewing`, of every " +
    "target; `reports_over_24h` counts those filed more than 24 hours ago (the promise to act on a report " +
    "within a day; `/metrics` has the oldest one's age, `agora_reports_oldest_undecided_age_seconds`); " +
    "`hidden_moments` counts moments hidden by moderation.",
  adminReportsExportCsv:
    "A CSV file (RFC 4180, UTF-8, a header row) of every report, oldest first, streamed as it is read: the " +
    "server reads reports in keyset batches of 1,000, so memory stays flat whatever their number and no " +
    "transaction is held while a slow client downloads. The columns, in order: " +
    reportExportColumns.map((column) => `\`${column}\``).join(", ") +
    ". Every target's reports: `target_type`, `target_id`, `target_owner_id`, `category`, `source` (`member` or " +
    "`filter`) and `decision` (the action that closed it); the `moment_*` columns are set for moment reports only, " +
    "and `reporter_id` is empty for a filter's report. Times are RFC 3339 in UTC, booleans `true` / `false`, an " +
    "absent value an empty cell. A cell that begins " +
    "with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a spreadsheet does not run it " +
    "as a formula. `Content-Disposition` names the file `agora-reports-YYYY-MM-DD.csv` (today, UTC). Should " +
    "the database fail after the first bytes, the response ends without its last row's line break, truncated.",
  adminAuditList:
    "Newest first. Each event names its actor (null: an operator at the command line), the action, the target " +
    "(type and id), the fields it changed (`before`, `after`), other details and the request id. Filters: " +
    "`actor_id`, `action`, `target_type`, `target_id`, `since` (RFC 3339). The trail is append-only. " +
    "`meta` carries `{ limit, offset, total }` (limit 1-100, default 50).",
  adminAccountantServicesGet: "404 unless the user is an accountant.",
  adminAccountantServicesPut:
    "Replaces the whole set atomically (an empty list removes every assignment) and records one audit event with " +
    "the sets before and after. 422 when the user is not an accountant, a service is unknown (each is named in " +
    "`details`), or `service_ids` is missing. Reports and order reads of the accountant follow at once.",
  reportsSummary:
    "Administrators see every service; an accountant only the services assigned to them (with none assigned, " +
    "every figure is zero); anyone else 403. The figures: `orders_by_status` counts orders created in the window " +
    "by their current status; `completed_gross` sums the totals of orders completed in the window, per currency; " +
    "`manual_sales` sums manual sales that occurred in the window, per currency (for an accountant, those of " +
    "providers with a listing in an assigned service); `payments.confirmed` counts payments confirmed in the " +
    "window, `payments.awaiting_review` those submitted and not yet decided now; `new_listings` counts listings " +
    "created in the window. A service's orders and payments are those of its listings.",
  adminCollectionList:
    `\`kind\` is one of ${Object.keys(adminCollections)
      .map((name) => `\`${name}\``)
      .join(", ")}; any other is 404. ` +
    "`q` (3-120 characters, case-insensitive) searches: " +
    Object.entries(adminCollections)
      .map(([name, kind]) => `${name}: ${kind.searches}`)
      .join("; ") +
    ". `status` must be one of the kind's statuses (else 422): " +
    Object.entries(adminCollections)
      .map(([name, kind]) => `${name}: ${kind.status.options.join(" | ")}`)
      .join("; ") +
    ". Newest first (services by name). Administrators only, except " +
    Object.entries(adminCollections)
      .flatMap(([name, kind]) => ("readers" in kind ? [`\`${name}\`: ${kind.readers}`] : []))
      .join("; ") +
    ". `meta` carries `{ limit, offset, total }` (limit 1-100, default 20; offset 0 or more; else 422).",
  adminStatusUpdate:
    "`kind` is `users` (status `active` | `suspended`) or `listings` (`active` | `inactive` | `suspended`). " +
    "Audited. Suspending a user revokes every session, so its access tokens fail on the next request; " +
    "activating a pending user also counts as verifying it. A suspended user's listings are neither " +
    "public nor orderable until the user is active again. The last active administrator cannot be " +
    "suspended: 409 `last_admin` (two administrators suspending each other at once cannot leave none). " +
    "Any other kind is 404; a status not allowed for the kind is 422.",
} satisfies DescriptionsOf<typeof administrationOperations>;
