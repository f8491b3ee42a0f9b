// One flow per area through a client that a third-party generator (@hey-api/openapi-ts) made from
// the document the server serves: proof that the document serves clients we did not write.
// src/generated-client.e2e.int.test.ts generates that client into ./sdk (gitignored, made anew at
// each run), compiles this file with it under strict tsc (./tsconfig.json), then runs these flows
// against a listening server. Only the generated code talks to the server (the token goes through
// its `auth` option, so an operation the document leaves without its security scheme fails here);
// `Hooks` is what no client can do: read a mailed code, be an admin or an approved provider.

import {
  adminAnnouncementsCreate,
  adminAuditList,
  adminCollectionList,
  adminOverview,
  adminReportsExportCsv,
  adminStatusUpdate,
  announcementsList,
  authLogin,
  authLoginVerify,
  authLogout,
  authMeGet,
  authRefresh,
  authRegister,
  authVerifyEmail,
  catalogCategoriesList,
  catalogServicesList,
  communityFeed,
  conversationsCreate,
  conversationsList,
  conversationsMarkRead,
  curatedContentList,
  datingBrowse,
  datingProfilePut,
  devicesRegister,
  listingsCreate,
  listingsGet,
  listingsList,
  mediaGet,
  mediaUpload,
  meetingsCreate,
  meetingsEnd,
  meetingsList,
  menuItemsCreate,
  messagesList,
  messagesSend,
  momentCommentsCreate,
  momentCommentsList,
  momentsCreate,
  momentsLike,
  momentsReport,
  notificationsList,
  notificationsMarkRead,
  orderPaymentsCreate,
  ordersCreate,
  ordersGet,
  ordersTransition,
  paymentsConfirm,
  paymentsSubmit,
  usersBlock,
} from "./sdk";
import { type Client, createClient, createConfig } from "./sdk/client";

export type Account = { token: string; userId: string };

export type Hooks = {
  /** The six-digit code in the newest mail to `email`. */
  mailedCode(email: string): string;
  /** A new active member, signed in. */
  member(): Promise<Account>;
  /** A new admin, signed in. */
  admin(): Promise<Account>;
  /** A new approved provider, signed in, with its provider profile. */
  provider(): Promise<Account & { providerId: string }>;
  /** A published listing of a new provider with one menu item. */
  orderable(): Promise<{ seller: Account; listingId: string; itemId: string }>;
  /** Runs the outbox once (notifications are delivered by it, and uploads processed). */
  deliverEvents(): Promise<void>;
};

type Flow = (baseUrl: string, hooks: Hooks) => Promise<void>;

/** What a generated function resolves with (hey-api's fields style). */
type Outcome<T> = { data?: T; error?: unknown; response?: Response };

/** The body of a response with `status`; anything else fails the flow with what came back. */
const expectStatus = async <T>(call: Promise<Outcome<T>>, status: number, what: string): Promise<T> => {
  const { data, error, response } = await call;
  if (response?.status !== status || data === undefined) {
    throw new Error(`${what}: expected ${status}, got ${response?.status}: ${JSON.stringify(error ?? data)}`);
  }

  return data;
};

const check = (condition: boolean, what: string) => {
  if (!condition) {
    throw new Error(`${what}: not so`);
  }
};

const clientFor = (baseUrl: string, account?: Account): Client =>
  createClient(createConfig({ baseUrl, ...(account ? { auth: () => account.token } : {}) }));

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

const identity: Flow = async (baseUrl, hooks) => {
  const client = clientFor(baseUrl);
  const tag = unique();
  const email = `gen-${tag}@example.com`;
  const password = "generated client pw";

  const registered = await expectStatus(
    authRegister({ client, body: { username: `gen${tag}`, email, password } }),
    201,
    "register",
  );
  const userId = registered.data.user_id;
  await expectStatus(
    authVerifyEmail({ client, body: { user_id: userId, code: hooks.mailedCode(email) } }),
    200,
    "verify email",
  );
  await expectStatus(authLogin({ client, body: { email, password } }), 202, "login");
  const session = await expectStatus(
    authLoginVerify({ client, body: { email, code: hooks.mailedCode(email) } }),
    200,
    "login verify",
  );
  check(session.data.user.id === userId, "the session is the registered user's");

  const me = await expectStatus(
    authMeGet({ client: clientFor(baseUrl, { token: session.data.access_token, userId }) }),
    200,
    "me",
  );
  check(me.data.email === email, "me names the registered email");
  const refreshed = await expectStatus(
    authRefresh({ client, body: { refresh_token: session.data.refresh_token } }),
    200,
    "refresh",
  );
  check(refreshed.data.refresh_token !== session.data.refresh_token, "refresh rotates the refresh token");
  await expectStatus(
    authLogout({
      client: clientFor(baseUrl, { token: refreshed.data.access_token, userId }),
      body: { refresh_token: refreshed.data.refresh_token },
    }),
    200,
    "logout",
  );
};

const catalog: Flow = async (baseUrl, hooks) => {
  const anyone = clientFor(baseUrl);
  const services = await expectStatus(catalogServicesList({ client: anyone }), 200, "services");
  check(services.data.length > 0, "the catalog has services");
  const categories = await expectStatus(catalogCategoriesList({ client: anyone }), 200, "categories");
  const category = categories.data[0];
  check(category !== undefined, "the catalog has categories");

  const seller = await hooks.provider();
  const provider = clientFor(baseUrl, seller);
  const draft = await expectStatus(
    listingsCreate({
      client: provider,
      body: { provider_id: seller.providerId, category_id: category?.id ?? "", name: "Generated noodles" },
    }),
    201,
    "create listing",
  );
  check(draft.data.status === "draft", "a new listing is a draft");
  const item = await expectStatus(
    menuItemsCreate({
      client: provider,
      path: { id: draft.data.id },
      body: { name: "Biang biang", price_amount: 1400, currency: "USD" },
    }),
    201,
    "add menu item",
  );
  check(item.data.price_amount === 1400, "the menu item keeps its price");

  const { listingId } = await hooks.orderable();
  const found = await expectStatus(listingsList({ client: anyone, query: { limit: 100 } }), 200, "search");
  check(
    found.data.some((listing) => listing.id === listingId),
    "the published listing is found",
  );
  const listing = await expectStatus(
    listingsGet({ client: anyone, path: { id: listingId } }),
    200,
    "listing",
  );
  check(listing.data.menu_items.length === 1, "the published listing shows its menu item");
};

const ordersAndPayments: Flow = async (baseUrl, hooks) => {
  const { seller, itemId } = await hooks.orderable();
  const buyer = clientFor(baseUrl, await hooks.member());
  const provider = clientFor(baseUrl, seller);

  const order = await expectStatus(
    ordersCreate({
      client: buyer,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { menu_item_id: itemId, quantity: 2 },
    }),
    201,
    "create order",
  );
  check(order.data.status === "pending", "a new order is pending");
  const confirmed = await expectStatus(
    ordersTransition({
      client: provider,
      path: { id: order.data.id },
      body: { status: "confirmed", version: order.data.version },
    }),
    200,
    "confirm order",
  );
  check(confirmed.data.status === "confirmed", "the provider confirmed the order");
  const payment = await expectStatus(
    orderPaymentsCreate({
      client: buyer,
      path: { id: order.data.id },
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { method: "walletone_qr" },
    }),
    201,
    "create payment",
  );
  check(payment.data.amount === order.data.total_amount, "the payment is for the order's total");
  await expectStatus(
    paymentsSubmit({
      client: buyer,
      path: { id: payment.data.id },
      body: { method: "walletone_qr", version: payment.data.version },
    }),
    200,
    "submit payment",
  );
  await expectStatus(
    paymentsConfirm({ client: provider, path: { id: payment.data.id } }),
    200,
    "confirm payment",
  );
  const read = await expectStatus(
    ordersGet({ client: buyer, path: { id: order.data.id } }),
    200,
    "read order",
  );
  check(read.data.payment_status === "payment_confirmed", "the order shows the confirmed payment");
};

const notifications: Flow = async (baseUrl, hooks) => {
  const { seller, itemId } = await hooks.orderable();
  const provider = clientFor(baseUrl, seller);
  await expectStatus(
    devicesRegister({ client: provider, body: { token: `fcm-${seller.userId}`, platform: "android" } }),
    201,
    "register device",
  );
  await expectStatus(
    ordersCreate({
      client: clientFor(baseUrl, await hooks.member()),
      body: { menu_item_id: itemId, quantity: 1 },
    }),
    201,
    "create order",
  );
  await hooks.deliverEvents();

  const inbox = await expectStatus(notificationsList({ client: provider }), 200, "notifications");
  const first = inbox.data[0];
  check(first !== undefined && first.read_at === null, "the new order's notification is unread");
  const read = await expectStatus(
    notificationsMarkRead({ client: provider, path: { id: first?.id ?? "" } }),
    200,
    "mark read",
  );
  // The route answers one notification, or a summary for `all`: the union is narrowed by its fields.
  check("read_at" in read.data && read.data.read_at !== null, "the notification is read");
};

const chat: Flow = async (baseUrl, hooks) => {
  const alice = clientFor(baseUrl, await hooks.member());
  const bobAccount = await hooks.member();
  const bob = clientFor(baseUrl, bobAccount);

  const conversation = await expectStatus(
    conversationsCreate({ client: alice, body: { other_user_id: bobAccount.userId } }),
    201,
    "open conversation",
  );
  const sent = await expectStatus(
    messagesSend({
      client: alice,
      path: { id: conversation.data.id },
      body: { body: "hello from a generated client" },
    }),
    201,
    "send",
  );
  check(sent.data.seq === 1, "the first message is seq 1");
  const page = await expectStatus(
    messagesList({ client: bob, path: { id: conversation.data.id }, query: { after: 0 } }),
    200,
    "messages",
  );
  check(page.data.map((message) => message.body).join() === "hello from a generated client", "bob reads it");
  const marker = await expectStatus(
    conversationsMarkRead({ client: bob, path: { id: conversation.data.id } }),
    200,
    "mark read",
  );
  check(marker.data.last_read_seq === 1, "bob has read up to seq 1");
  const listed = await expectStatus(conversationsList({ client: bob }), 200, "conversations");
  check(
    listed.data.some((item) => item.id === conversation.data.id && item.unread_count === 0),
    "the conversation is listed, read",
  );
};

const media: Flow = async (baseUrl, hooks) => {
  const authorAccount = await hooks.member();
  const author = clientFor(baseUrl, authorAccount);
  // A real 1×1 PNG (the server processes it before any record takes it).
  const bytes = Uint8Array.from(
    atob(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWM4Y2wMAAMBATOR31alAAAAAElFTkSuQmCC",
    ),
    (char) => char.charCodeAt(0),
  );

  const ticket = await expectStatus(
    mediaUpload({
      client: author,
      body: { purpose: "moment", mime_type: "image/png", size_bytes: bytes.length },
    }),
    201,
    "upload ticket",
  );
  const stored = await fetch(ticket.data.upload_url, {
    method: ticket.data.method,
    headers: ticket.data.headers,
    body: bytes,
  });
  check(stored.status === 200, "the signed URL takes the bytes");
  // The specification's flow: the moment takes the asset at once; readers see it processing, with no
  // URL, until the worker made it ready.
  await expectStatus(
    momentsCreate({ client: author, body: { body: "with a picture", media_asset_ids: [ticket.data.id] } }),
    201,
    "moment with the picture, at once",
  );
  const reader = clientFor(baseUrl, await hooks.member());
  const queued = await expectStatus(
    mediaGet({ client: reader, path: { id: ticket.data.id } }),
    200,
    "queued",
  );
  check(queued.data.status === "processing" && queued.data.url === null, "the picture is being processed");
  await hooks.deliverEvents();
  const read = await expectStatus(
    mediaGet({ client: reader, path: { id: ticket.data.id } }),
    200,
    "read media",
  );
  check(
    read.data.status === "ready" && read.data.variants.length === 2 && read.data.url !== null,
    "the picture is ready, with variants",
  );
  if (read.data.url === null) {
    return;
  }
  const downloaded = new Uint8Array(await (await fetch(read.data.url)).arrayBuffer());
  check(
    downloaded.subarray(0, 4).join() === bytes.subarray(0, 4).join(),
    "the picture downloads, a PNG again",
  );
};

const community: Flow = async (baseUrl, hooks) => {
  const author = clientFor(baseUrl, await hooks.member());
  const readerAccount = await hooks.member();
  const reader = clientFor(baseUrl, readerAccount);

  const moment = await expectStatus(
    momentsCreate({ client: author, body: { body: "generated" } }),
    201,
    "moment",
  );
  const feed = await expectStatus(communityFeed({ client: reader }), 200, "feed");
  check(
    feed.data.some((item) => item.id === moment.data.id),
    "the moment is in the feed",
  );
  const liked = await expectStatus(
    momentsLike({ client: reader, path: { id: moment.data.id } }),
    200,
    "like",
  );
  check(liked.data.likes === 1, "one like");
  const comment = await expectStatus(
    momentCommentsCreate({ client: reader, path: { id: moment.data.id }, body: { body: "nice" } }),
    201,
    "comment",
  );
  const comments = await expectStatus(
    momentCommentsList({ client: author, path: { id: moment.data.id }, query: { limit: 10 } }),
    200,
    "comments",
  );
  check(comments.data.map((item) => item.id).join() === comment.data.id, "the comment is listed");
  await expectStatus(
    momentsReport({ client: reader, path: { id: moment.data.id }, body: { reason: "spam" } }),
    201,
    "report",
  );
  const blocked = await expectStatus(
    usersBlock({ client: author, path: { id: readerAccount.userId } }),
    200,
    "block",
  );
  check(blocked.data.blocked, "the reader is blocked");
};

const lifestyle: Flow = async (baseUrl, hooks) => {
  const meAccount = await hooks.member();
  const me = clientFor(baseUrl, meAccount);
  const other = clientFor(baseUrl, await hooks.member());

  await expectStatus(
    datingProfilePut({ client: me, body: { visible: true, bio: "hiking", interests: ["Hiking"] } }),
    200,
    "dating profile",
  );
  const browse = await expectStatus(datingBrowse({ client: other, query: { limit: 50 } }), 200, "browse");
  check(
    browse.data.some((profile) => profile.user_id === meAccount.userId),
    "the visible profile is browsable",
  );
  const meeting = await expectStatus(
    meetingsCreate({
      client: me,
      body: { title: "Generated standup", starts_at: new Date(Date.now() + 3_600_000).toISOString() },
    }),
    201,
    "create meeting",
  );
  const meetings = await expectStatus(meetingsList({ client: me }), 200, "meetings");
  check(
    meetings.data.some((item) => item.id === meeting.data.id),
    "the meeting is listed",
  );
  const ended = await expectStatus(meetingsEnd({ client: me, path: { id: meeting.data.id } }), 200, "end");
  check(ended.data.status === "ended", "the meeting ended");
  await expectStatus(announcementsList({ client: me }), 200, "announcements");
  await expectStatus(curatedContentList({ client: me }), 200, "curated content");
};

const administration: Flow = async (baseUrl, hooks) => {
  const admin = clientFor(baseUrl, await hooks.admin());
  const target = await hooks.member();

  await expectStatus(adminOverview({ client: admin }), 200, "overview");
  const users = await expectStatus(
    adminCollectionList({ client: admin, path: { kind: "users" }, query: { limit: 100 } }),
    200,
    "users",
  );
  check(users.data.length > 0, "users are listed");
  await expectStatus(
    adminStatusUpdate({
      client: admin,
      path: { kind: "users", id: target.userId },
      body: { status: "suspended" },
    }),
    200,
    "suspend",
  );
  const refused = await authMeGet({ client: clientFor(baseUrl, target) });
  check(refused.response?.status === 401, "a suspended member is refused");
  const announcement = await expectStatus(
    adminAnnouncementsCreate({ client: admin, body: { title: "Hello", body: "From a generated client" } }),
    201,
    "announcement",
  );
  check(announcement.data.title === "Hello", "the announcement is created");
  const audit = await expectStatus(
    adminAuditList({ client: admin, query: { action: "user.status_changed" } }),
    200,
    "audit",
  );
  check(
    audit.data.some((event) => event.target_id === target.userId),
    "the suspension is audited",
  );
  const csv = await expectStatus(adminReportsExportCsv({ client: admin, parseAs: "text" }), 200, "export");
  check(
    typeof csv === "string" && csv.startsWith("report_id,created_at,"),
    "the export is CSV with its header",
  );
};

export const flows = {
  identity,
  "catalog and listings": catalog,
  "orders and payments": ordersAndPayments,
  notifications,
  chat,
  "media upload": media,
  community,
  lifestyle,
  administration,
} satisfies Record<string, Flow>;
