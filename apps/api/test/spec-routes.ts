import { operations } from "@agora/contracts/operations";

/**
 * The API's `METHOD /path` pairs, from the contracts' route table: the specification's 88 and the
 * routes the API adds to them (addedRoutes). The tests check that the app serves and documents
 * exactly these.
 */
export const specRoutes: readonly string[] = operations.map(({ method, path }) => `${method} ${path}`);

/**
 * The routes beside the specification's, each documented in the served OpenAPI document: the guest
 * receipts' unsubscribe, the confirmation of an upload (docs/media.md), and the account's own
 * sessions, password, email address and data exports (docs/accounts.md).
 */
export const addedRoutes: readonly string[] = [
  "PATCH /api/v1/community/moments/{id}",
  "DELETE /api/v1/community/moments/{id}",
  "DELETE /api/v1/community/moments/{id}/like",
  "PATCH /api/v1/community/comments/{id}",
  "DELETE /api/v1/community/comments/{id}",
  "POST /api/v1/community/users/{id}/mute",
  "DELETE /api/v1/community/users/{id}/mute",
  "GET /api/v1/community/mutes",
  "POST /api/v1/guest/orders/{id}/unsubscribe",
  "POST /api/v1/media/{id}/confirm",
  "GET /api/v1/auth/sessions",
  "DELETE /api/v1/auth/sessions/{id}",
  "POST /api/v1/auth/sessions/revoke-others",
  "POST /api/v1/auth/password",
  "POST /api/v1/auth/me/export",
  "GET /api/v1/auth/me/export",
  "GET /api/v1/auth/me/export/download",
  "POST /api/v1/auth/email",
  "POST /api/v1/auth/email/verify",
  "POST /api/v1/auth/email/undo",
  "POST /api/v1/reports",
  "GET /api/v1/admin/reports",
  "GET /api/v1/admin/reports/targets/{target_type}/{target_id}",
  "POST /api/v1/admin/reports/targets/{target_type}/{target_id}/decision",
  "GET /api/v1/admin/filters",
  "POST /api/v1/admin/filters",
  "PATCH /api/v1/admin/filters/{id}",
  "DELETE /api/v1/admin/filters/{id}",
];

/** The number of routes the specification names. */
export const SPEC_ROUTE_COUNT = 88;
