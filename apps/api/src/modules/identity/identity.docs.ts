import type { identityOperations } from "@agora/contracts/identity";
import type { identityAdminOperations } from "@agora/contracts/identity.admin";
import type { DescriptionsOf } from "../../http/operations";
import { recordMediaRule } from "../media/media.docs";

/** The identity operations' OpenAPI descriptions, by operationId. */
export const identityDescriptions = {
  authRegister:
    "Creates the account and mails a 6-digit verification code (valid 30 minutes, 5 tries) while the " +
    "client waits: when the mail cannot be sent the answer is 503 `email_unavailable` and no account is " +
    "kept, so the same registration can be retried. The mail also carries a link (`VERIFY_EMAIL_URL` " +
    "with `user_id` and `code` as query parameters) holding everything `verify-email` needs. An address " +
    "held by a registration still pending verification is not held: a new registration replaces it (the " +
    "pending account, its password and codes are removed) and mails a code for the new one, so the " +
    "mailbox's owner always ends with the account and their own password; registrations never verified " +
    "are removed after `PENDING_ACCOUNT_TTL_SECONDS` (default 48 hours), freeing email and username. " +
    "Registration never tells whether an email has an " +
    "account: a verified email also answers 201 with a `user_id`, after the same work, and its owner gets a " +
    '"someone tried to register" mail instead of a code (that id belongs to no account; verifying it ' +
    "answers 422 `invalid_code`). A taken username is 409 `username_taken`, decided on the username " +
    "alone. 429 `rate_limited` (with `Retry-After`) past `RATE_LIMIT_REGISTER_PER_EMAIL` registrations " +
    "of the email per hour, or `RATE_LIMIT_AUTH_PER_IP` requests from the address in 15 minutes. 503 " +
    "`service_unavailable` (with `Retry-After`) when every password-hashing slot is busy.",
  authVerifyEmail:
    "A wrong, expired or spent code is 422 `invalid_code`. 20 wrong verification codes for an account " +
    "within 24 hours (over any number of codes) lock verification for the rest of those 24 hours: no " +
    "code is sent or accepted (the answer stays `invalid_code`) and the owner is told by mail. The id and " +
    "code of a registration replaced by a newer one for the same email, or removed unverified after " +
    "`PENDING_ACCOUNT_TTL_SECONDS`, answer 422 `invalid_code` too.",
  authVerificationResend:
    "The resend cooldown (`RESEND_COOLDOWN_SECONDS`, default 60) is kept per address as given, whether " +
    "or not it has an account: a second resend for the same address inside it, or one right after a " +
    "registration with that address (taken or not), answers 429 `rate_limited` with `Retry-After` (the " +
    "seconds left). Outside it the answer is 202 whatever the account: the request is queued and the " +
    "mail sent by the outbox worker shortly after, only to an account pending verification and not " +
    "within the cooldown of its last code (60 s for the first three codes of a day, then doubling up to " +
    "an hour). Status, body and timing are the same for an unknown email, so a resend reveals nothing. " +
    "429 also past `RATE_LIMIT_AUTH_PER_IP` requests from the client address in 15 minutes.",
  authLogin:
    "No session is created: tokens come from `/login/verify` with the mailed 6-digit code (valid 15 " +
    "minutes, 5 tries). An unknown email and a wrong password answer the same 401 " +
    "`invalid_credentials` in the same time. A right password on an unverified account is 403 " +
    "`email_not_verified`, on a suspended one 403 `account_suspended`. The code is mailed while the " +
    "client waits: 503 `email_unavailable` when it cannot be sent (no code kept). 429 `rate_limited` " +
    "(with `Retry-After`) within the cooldown of the last sign-in code (60 s for the first three codes " +
    "of a day, then doubling up to an hour), while sign-in codes are locked after 20 wrong ones in 24 " +
    "hours, after `LOGIN_FAILURES_PER_CLIENT` (default 10) sign-in tries for the email from the client's " +
    "address (IPv6 per /64) in 15 minutes (every try counts; the right password clears that client's " +
    "count; other clients, the owner's included, are not refused), or past `RATE_LIMIT_AUTH_PER_IP` " +
    "requests from the address in 15 minutes. `LOGIN_FAILURE_NOTICE_PER_EMAIL` (default 20) wrong " +
    "passwords for an account from any clients in 15 minutes mail its owner a notice; they refuse " +
    "nothing, and an unknown email is counted alike. 503 " +
    "`service_unavailable` (with `Retry-After`) when every password-hashing slot is busy.",
  authLoginVerify:
    "The code works once; a wrong, expired or spent code is 401 `invalid_code`, and an unknown email or " +
    "an account that is not active answers the same 401 after the same work (same status, body and " +
    "timing). 20 wrong sign-in codes " +
    "for an account within 24 hours (over any number of codes) lock sign-in codes for the rest of those " +
    "24 hours: no code is sent (`/login` answers 429) or accepted, and the owner is told by mail. " +
    "The new session keeps what its owner's session list (`GET /api/v1/auth/sessions`) shows: the " +
    "optional `platform`, the request's `User-Agent` and the network of its address (the /24 or /48, " +
    "never the address). A sign-in from a platform and network the account has not signed in from in " +
    "the last 90 days (its first sign-in aside) mails the owner a notice pointing to that list.",
  authLoginCodeResend:
    "The resend cooldown (`RESEND_COOLDOWN_SECONDS`, default 60) is kept per address as given, whether " +
    "or not it has an account: a second resend for the same address inside it, or one right after the " +
    "correct-password sign-in that mailed a code, answers 429 `rate_limited` with `Retry-After` (the " +
    "seconds left). Outside it the answer is 202 whatever the account: the request is queued and the " +
    "mail sent by the outbox worker shortly after, only for an active account with a sign-in in " +
    "progress (a live code issued after a correct password), so a resend never starts a sign-in on its " +
    "own, and not within the cooldown of the last sign-in code. Status, body and timing are the same " +
    "for an unknown email. 429 also past `RATE_LIMIT_AUTH_PER_IP` requests from the client address in " +
    "15 minutes.",
  authRefresh:
    "Refresh tokens are single-use. The same token presented again within `REFRESH_REUSE_GRACE_SECONDS` " +
    "(default 10) of its rotation (one app refreshing from two places at once) gets the first rotation's " +
    "answer again: the same refresh token and access token (`expires_in` is what is left of it), so the " +
    "session never forks. Presented later it is treated as theft: the whole chain is revoked (its newest " +
    "token too) and the answer is 401. A session has an absolute lifetime (`SESSION_MAX_AGE_SECONDS`, " +
    "default 90 days from sign-in) that rotation does not extend: refresh tokens never outlive it, its " +
    "access tokens stop working at its end, and past it the answer is 401 and the user signs in again.",
  authLogout: "The session's refresh tokens and its access tokens stop working at once.",
  authMeGet: "The caller's account with its avatar as `media` (one image or none; docs/media.md).",
  authMeUpdate:
    "`media_asset_ids`: the avatar, at most one of the caller's own assets uploaded for `avatar`, " +
    `${recordMediaRule}. ` +
    "It replaces the avatar (`[]` removes it; the old one is " +
    "deleted later by the orphan purge); absent, the avatar is unchanged. The answer carries it as `media`. " +
    "Other signed-in members read the avatar while the account is active and no block stands either way " +
    "(`GET /api/v1/media/{id}`, 403 otherwise).",
  authMeDelete:
    "The account is marked deleted and scrubbed (email, username, name, password; both become free to " +
    "register again); every session is revoked, so access tokens fail on the next request. What the " +
    "account published is erased in the same transaction: the provider profile's name, bio and phone, " +
    "the dating profile, its moments (with everyone's comments on them) and its comments elsewhere, " +
    "which leave every read; its listings leave search; its media are deleted from the object store " +
    "shortly after, by the outbox worker. Orders, payments and audit events stay (the books and the " +
    "record of who did what), without the order notes; the inbox and push registrations go. The last " +
    "active administrator cannot delete their account: 409 `last_admin` (make another user an admin first; " +
    "two administrators deleting or demoting each other at once cannot leave none).",
  authPasswordResetRequest:
    "Always 202, never revealing whether the account exists: the same work is done for any email (the " +
    "request is queued), and the outbox worker mails a code (valid 30 minutes, 5 tries) shortly after, " +
    "only to an active account or one pending verification (confirming then verifies it: the code proves " +
    "the mailbox), not within the cooldown of the previous reset code (60 s for the first " +
    "three of a day, then doubling up to an hour) and not while reset codes are locked. A mail the " +
    "provider refuses is retried by the worker with backoff. 429 `rate_limited` (with `Retry-After`) " +
    "only past `RATE_LIMIT_RESET_PER_EMAIL` requests for the email per hour or `RATE_LIMIT_AUTH_PER_IP` " +
    "requests from the address in 15 minutes; both count every request alike.",
  authPasswordResetConfirm:
    "Every session of the account is revoked. An account still pending verification becomes active " +
    "with the new password (whatever password its registration set no longer works). A wrong, expired or spent code is 422 `invalid_code`; the " +
    "code is checked before the new password is hashed. 20 wrong reset codes for an account within 24 " +
    "hours lock reset codes for the rest of those 24 hours (no code is sent or accepted; the answer stays " +
    "`invalid_code`) and the owner is told by mail.",
  authSessionsList:
    "The caller's sessions that are live now (not ended, within `SESSION_MAX_AGE_SECONDS` of sign-in), " +
    "most recently used first, at most 100. `last_used_at` is kept to the minute without a write per " +
    "request: each server process holds the times of the sessions it served and writes them once a " +
    "minute, so another process's use may show up to a minute late; the caller's own session is in use " +
    "now. `current` marks the session making the request.",
  authSessionsEnd:
    "Ends the session (the caller's own too, which signs this client out): its access tokens answer " +
    "401 from their next request, its refresh token answers 401 `invalid_refresh_token`, its realtime " +
    "sockets close at their next session check, and its push registrations get no further pushes. A " +
    "session of the caller's that has ended already answers 200 again (a retry is safe). Another user's " +
    "session, or an id that names none, is 404 `not_found`.",
  authSessionsEndOthers:
    "Ends every session of the account but the one making the request (as `DELETE " +
    "/api/v1/auth/sessions/{id}` ends one) and answers how many this request ended: repeating it ends " +
    "none and answers 0.",
  authPasswordChange:
    "The current password is checked as a sign-in's is: a wrong one is 401 `invalid_credentials` (not " +
    "`unauthorized`: the session stays valid, do not refresh) and counts toward the sign-in guessing " +
    "limits of the account's address (`LOGIN_FAILURES_PER_CLIENT` tries from one client address per 15 " +
    "minutes, then 429 `rate_limited` with `Retry-After`; `LOGIN_FAILURE_NOTICE_PER_EMAIL` wrong ones " +
    "mail the owner). `new_password` follows the registration's rule (8-128 characters). On success, in " +
    "one transaction, the password changes and every other session of the account ends (the caller's " +
    "stays signed in); the owner is mailed a notice. A retry whose first answer was lost (the current " +
    "password is now wrong, `new_password` is the password) answers 200 with `sessions_ended: 0` and " +
    "changes nothing. 503 `service_unavailable` (with `Retry-After`) when every password-hashing slot " +
    "is busy; nothing changed.",
  authMeExportRequest:
    "Queues one JSON document of what the account holds (profile, provider profile, listings, orders as " +
    "customer and as provider, their payments, the messages of the caller's conversations, sent and " +
    'received, moments, comments, notices, and the list of its media by id; docs/accounts.md, "Your data"). ' +
    "The outbox worker builds it shortly after, stores it privately, and tells the owner in the inbox " +
    "(`account.export_ready`) and by mail with a download link; it can be downloaded for 24 hours, then it " +
    "is deleted. At most one request a day: within 24 hours of the previous request the answer is 429 " +
    "`rate_limited` with `Retry-After` (the seconds left); two requests at once make one export. No " +
    "per-hour write limit besides that rule.",
  authMeExportGet:
    "The newest export: `status` `none` before any was requested, `pending` while it is built, `ready` with " +
    "`download_url` (a presigned GET URL valid 5 minutes, made fresh on each call; `download_url_expires_at`) " +
    "until `expires_at`, then `expired`. 503 `storage_unavailable` when the object store does not answer.",
  authMeExportDownload:
    "The mail's link (the mail cannot carry a bearer token): its random `token` (stored as a SHA-256 hash) " +
    "answers 302 to a presigned GET URL of the document valid 5 minutes while the export is ready and " +
    "unexpired; 404 `not_found` otherwise (an unknown token, one a newer mail of the same export replaced, " +
    "an expired export). 429 `rate_limited` past `RATE_LIMIT_AUTH_PER_IP` requests from the client " +
    "address in 15 minutes, as for the other public auth routes.",
  authEmailChange:
    "Checks the password under sign-in's guessing limits (a wrong one is 401 `invalid_credentials` and " +
    "counts exactly as at `/login`; 429 past `LOGIN_FAILURES_PER_CLIENT`), records the change as the " +
    "account's one pending change (a new request replaces it) and mails a 6-digit code (valid 30 " +
    "minutes, 5 tries) to the new address while the client waits (503 `email_unavailable` when it " +
    "cannot be sent, nothing kept; 429 within the code's cooldown). An address another account holds, " +
    "or the old address of a recent change still undoable, answers the same 202 after the same work, " +
    "but no code reaches it: its owner gets a short notice instead. A registration still pending " +
    "verification does not hold an address. 429 past `RATE_LIMIT_EMAIL_CHANGES_PER_HOUR` requests.",
  authEmailVerify:
    "Switches the address in one transaction: sign-in then uses the new address (already verified), " +
    "and the old address is mailed a link (`EMAIL_UNDO_URL` with `token`) that undoes the change " +
    "within 7 days. A wrong, expired or spent code is 422 `invalid_code` (20 wrong ones in 24 hours " +
    "lock email-change codes). 409 `email_taken` when another account took the address meanwhile " +
    "(of two changes to one address, exactly one wins); nothing changes then. A registration still " +
    "pending verification of the address is removed.",
  authEmailUndo:
    "Puts the old address back, whatever the account's address is now (a second change since does not " +
    "void the link), ends every session of the account (every access and refresh token stops working) " +
    "and spends every undo link of the account (a later change's link cannot move it away again); then " +
    "reset the password from the restored address. An unknown, expired (7 days) or used token, or an " +
    "account deleted since, is 422 `invalid_token`. While a change can be undone its old address stays " +
    "reserved: registering it creates no account and changing to it mails no code.",
  adminUsersRoleUpdate:
    "Audited. The new role applies to the user's next request (roles are read per request). The last " +
    "active administrator cannot lose the role: 409 `last_admin` (promote another user first; two " +
    "administrators demoting each other at once cannot leave none). Setting the role to `member` " +
    "withdraws the user's provider approval in the same transaction: the profile's `approval_status` " +
    "becomes `withdrawn`, its listings leave every public read, and every provider path (profile, " +
    "listings, menu items, subscription payments, dashboard, manual sales, order moves and payment " +
    "confirmations as the provider) answers 403 `forbidden` until an administrator approves it again.",
} satisfies DescriptionsOf<typeof identityOperations & typeof identityAdminOperations>;
