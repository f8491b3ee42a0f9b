import type { marketplaceOperations } from "@agora/contracts/marketplace";
import type { marketplaceAdminOperations } from "@agora/contracts/marketplace.admin";
import type { DescriptionsOf } from "../../http/operations";
import { recordMediaRule } from "../media/media.docs";

/** The marketplace operations' OpenAPI descriptions, by operationId. */
export const marketplaceDescriptions = {
  providersCreate:
    "The owner is the caller (never the body). Starts `pending` approval and `offline`. One profile per user: " +
    "a second is 422. " +
    `\`media_asset_ids\`: at most one of the caller's own assets uploaded for \`provider_logo\`, ${recordMediaRule}. ` +
    "The answer carries the logo as `media` (one image or none). The logo is read by others while the " +
    "provider is approved and its owner's account active (docs/media.md).",
  providersMeUpdate:
    "A new display name also changes what listing search matches. A withdrawn approval (the owner's role " +
    "set to `member`) is 403 `forbidden`. " +
    `\`media_asset_ids\`: at most one of the caller's own assets uploaded for \`provider_logo\`, ${recordMediaRule}. ` +
    "It replaces the logo (`[]` removes it; the old one is deleted later by the orphan purge); absent, the " +
    "logo is unchanged. The answer carries the logo as `media`.",
  providersMeDashboard:
    "Aggregates over the caller's own rows: listings by status, orders by status, revenue of the last 30 days " +
    "(primary sales of completed orders and manual sales, per currency) and payments awaiting review. " +
    "Providers only (403): the provider role and an approval that was not withdrawn.",
  providersMeSalesCreate:
    "Money taken outside the app; it counts in the dashboard's revenue. Providers only (403): the provider " +
    "role and an approval that was not withdrawn.",
  listingsList:
    "Only publicly visible listings: active, subscription active and not expired (checked now), provider " +
    "approved, and the provider's account active (a suspended or deleted owner's listings disappear). `q` " +
    "matches a substring of name, description or provider name, case-insensitively; it needs at least 3 " +
    "characters after trimming (the search index works on three-character sequences, so 1 or 2 are 422 " +
    "`validation_failed`; an empty `q` browses). Featured listings (featured-until in the future) come " +
    "first, then the most recently updated, then by id. `meta` carries `{ limit, offset, total }`. A " +
    "non-integer limit or offset is 400 `invalid_pagination`; out of range (limit 1-100, offset 0 to " +
    "1000: deeper pages are not served), `q` of 1-2 or over 120 characters, or `category_id` over 64 characters is 422. Pages may be " +
    "served from the server's cache, but only while they are still exactly the answer: every committed " +
    "change to a listing, menu item, provider or category, and every expiry or featured end that " +
    "touches a page, is seen by the next request. Limited per client address (`RATE_LIMIT_SEARCHES_PER_HOUR`, " +
    "3000 an hour by default): past it, 429 `rate_limited`. Each listing carries its `cover`: the first " +
    "image of its gallery (null without one), read for the whole page in one statement.",
  listingsCreate:
    "The listing belongs to the caller's provider profile: `provider_id` must be that profile's id (404 when " +
    "the caller has none or names another). The category must be active (422). Starts as `draft`; it becomes " +
    "`active` once the provider is approved and the subscription is paid. " +
    'Name and description pass the content filters (context `listings`, docs/safety.md "Filters"): 422 ' +
    "`content_blocked` naming the field, or saved held (out of every public read and not orderable until a " +
    "moderator approves the listing; its owner still sees and edits it; a later change never releases a hold), " +
    "or saved and flagged. " +
    "`media_asset_ids`: the gallery, up to 10 of the caller's own assets uploaded for `listing`, each once, " +
    `in order; ${recordMediaRule}. ` +
    "The answer carries the gallery as `media` (docs/media.md). A withdrawn approval (the owner's " +
    "role set to `member`) is 403 `forbidden` here and on every owner path of listings and menu items.",
  listingsGet:
    "404 when the listing is absent or not publicly visible (including when its provider's account is " +
    "suspended or deleted, or a content filter holds it). Items a content filter holds are left out of " +
    "`menu_items`. `media`: the gallery, in order, each image with its URL, size, blurhash and WebP " +
    "variants; public URLs are signed at the start of the hour for two hours, so they are the same all hour " +
    "(docs/media.md). Each of `menu_items` carries its image as `media` (one or none), and `provider_media` " +
    "is the provider's logo (one or none). The images follow the listing: while it is not public, " +
    "`GET /api/v1/media/{id}` refuses them to anyone but their owner (403).",
  listingsUpdate:
    "Listing and provider ids in the body are ignored: the path and the caller decide. 404 unless the caller " +
    "owns it. " +
    'Name and description pass the content filters (context `listings`, docs/safety.md "Filters"): 422 ' +
    "`content_blocked` naming the field, or saved held (out of every public read and not orderable until a " +
    "moderator approves the listing; its owner still sees and edits it; a later change never releases a hold), " +
    "or saved and flagged. " +
    "`media_asset_ids`: the gallery, up to 10 of the caller's own assets uploaded for `listing`, each once, " +
    `in order; ${recordMediaRule}. ` +
    "It replaces the gallery: images kept stay, images dropped are detached and deleted later by the orphan " +
    "purge. Absent, the gallery is unchanged. 403 when the caller's provider approval was withdrawn.",
  listingsDelete:
    "Not a hard delete: the listing becomes `inactive` and leaves public search. 403 when the caller's " +
    "provider approval was withdrawn.",
  menuItemsCreate:
    "Created active. Currency is uppercased; price is minor units. 403 when the caller's provider approval " +
    "was withdrawn. " +
    'Name and description pass the content filters (context `listings`, docs/safety.md "Filters"): 422 ' +
    "`content_blocked` naming the field, or saved held (out of every public read and not orderable until a " +
    "moderator approves its listing; its owner still sees and edits it; a later change never releases a hold), " +
    "or saved and flagged. " +
    `\`media_asset_ids\`: at most one of the caller's own assets uploaded for \`menu_item\`, ${recordMediaRule}. ` +
    "The answer carries the image as `media` (one or none).",
  menuItemsUpdate:
    "`active: false` hides it from listings and from ordering (and its image from others). 403 when the " +
    "caller's provider approval was withdrawn. " +
    'Name and description pass the content filters (context `listings`, docs/safety.md "Filters"): 422 ' +
    "`content_blocked` naming the field, or saved held (out of every public read and not orderable until a " +
    "moderator approves its listing; its owner still sees and edits it; a later change never releases a hold), " +
    "or saved and flagged. " +
    `\`media_asset_ids\`: at most one of the caller's own assets uploaded for \`menu_item\`, ${recordMediaRule}. ` +
    "It replaces the image (`[]` removes it; the old one is deleted later by the orphan purge); absent, the " +
    "image is unchanged. The answer carries the image as `media`.",
  menuItemsDelete:
    "`listing_id` is required (422 without it) and must be the caller's listing holding the item (404). " +
    "The item's image is detached and deleted later by the orphan purge. " +
    "403 when the caller's provider approval was withdrawn.",
  adminProvidersApprove:
    "pending (or withdrawn) → approved in one transaction: the owner's role becomes `provider` when it is " +
    "`member` (staff roles are kept), the listings are public again where the rest of the rule holds, draft " +
    "listings whose subscription is already paid are published, and the decision is audited. Approving an " +
    "approved provider changes nothing.",
} satisfies DescriptionsOf<typeof marketplaceOperations & typeof marketplaceAdminOperations>;
