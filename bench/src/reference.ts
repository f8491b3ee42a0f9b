// The reference server: raw node:http and raw `pg` answering the same JSON as Agora by running the
// same SQL (statements and repository functions are imported from packages/db and run on a bare
// pg client) and presenting it with Agora's own presenters (imported from apps/api: none is copied
// here), so each Agora figure can be read as a ratio measured in the same run. No framework, no
// validation layer, no domain layer, no logging, no metrics (unless REFERENCE_DUTIES, below).
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { createJwtAccessTokens } from "@agora/adapters/security/jwt-access-tokens";
import { successBody } from "@agora/contracts/envelope";
import { createReportExportSource } from "@agora/db/repositories/administration/report-export.repository";
import { createChatConnectionRepository } from "@agora/db/repositories/chat/chat-connections.repository";
import { CHAT_CHANNEL, decodeChatSignal } from "@agora/db/repositories/chat/chat-signals";
import { createConversationRepository } from "@agora/db/repositories/chat/conversations.repository";
import { createMessageRepository } from "@agora/db/repositories/chat/messages.repository";
import { feedStatement, type MomentRow, toMoment } from "@agora/db/repositories/community/moment-queries";
import { createIdempotencyStore } from "@agora/db/repositories/idempotency.repository";
import { activeActorStatement } from "@agora/db/repositories/identity/sessions.repository";
import { createUserRepository } from "@agora/db/repositories/identity/users.repository";
import { listingSearchQuery } from "@agora/db/repositories/marketplace/listing-queries";
import { createListingRepository } from "@agora/db/repositories/marketplace/listings.repository";
import { createMenuItemRepository } from "@agora/db/repositories/marketplace/menu-items.repository";
import { createNotificationRepository } from "@agora/db/repositories/notifications/notifications.repository";
import { createOrderRepository } from "@agora/db/repositories/orders/orders.repository";
import { createOutboxWriter } from "@agora/db/repositories/outbox/outbox-events.repository";
import { KEY_PURPOSES, keyRing } from "@agora/domain/common/derived-keys";
import { chunkedStdout } from "@agora/process/logging";
import { settings } from "@agora/process/settings";
import { stringify } from "csv-stringify";
import pg from "pg";
import { Histogram } from "prom-client";
import { v7 } from "uuid";
import { type WebSocket, WebSocketServer } from "ws";
import { toConversationDto, toMessageDto } from "../../apps/api/src/modules/chat/chat.presenter.ts";
import { cursorMeta, toMomentDto } from "../../apps/api/src/modules/community/community.presenter.ts";
import { toUserDto } from "../../apps/api/src/modules/identity/identity.presenter.ts";
import { toPublicListingDetailDto } from "../../apps/api/src/modules/marketplace/marketplace.presenter.ts";
import { toNotificationDto } from "../../apps/api/src/modules/notifications/notifications.presenter.ts";
import { toAdminOrderDto } from "../../apps/api/src/modules/orders/orders.admin.presenter.ts";
import { toOrderDto } from "../../apps/api/src/modules/orders/orders.presenter.ts";

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void | Promise<void>;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on("error", () => {});
/** Agora's access tokens, verified as Agora verifies them (its module, its key, its cache). */
const accessTokens = createJwtAccessTokens(
  keyRing(process.env.TOKEN_SECRET ?? "", KEY_PURPOSES.accessTokens),
  3600,
);
/** A session's absolute lifetime, as Agora reads it (its default when unset). */
const sessionMaxAgeSeconds = settings.SESSION_MAX_AGE_SECONDS.schema.parse(
  process.env.SESSION_MAX_AGE_SECONDS,
);
const ids = { next: () => v7() };

/**
 * REFERENCE_DUTIES (the bench's BENCH_REFERENCE_DUTIES=1 sets it to the JSON `[name, value]` pairs of
 * the headers every Agora answer carries, read off Agora's own answer): the reference then also does,
 * by hand on raw node:http, what every Agora JSON answer must do besides its route's work: those
 * headers and `X-Request-Id` (the envelope's id) on the answer, one access-log line with Agora's
 * fields written to stdout in 4 KiB chunks, and one sample in a prom-client histogram labelled by
 * method, route template and status, its children remembered as Agora remembers them. A row's
 * ratio against it is what Agora's framework path (adapter, Hono, validation, presenters) costs
 * beyond those duties (docs/performance.md).
 */
const dutyHeaders: Record<string, string> | undefined = process.env.REFERENCE_DUTIES
  ? Object.fromEntries(JSON.parse(process.env.REFERENCE_DUTIES) as Array<[string, string]>)
  : undefined;
type DutyResponse = ServerResponse & { started?: number; route?: string };
const durations = new Histogram({
  name: "http_request_duration_seconds",
  help: "HTTP request duration in seconds, by method, route template and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});
const observers = new Map<string, Map<number, { observe(value: number): void }>>();
// Agora's own log destination: the same 4 KiB chunks through process.stdout.
const log = chunkedStdout(process.stdout);
if (dutyHeaders) {
  setInterval(() => log.flush(), 250).unref();
}
const doDuties = (response: DutyResponse, status: number, requestId: string) => {
  const seconds = (performance.now() - (response.started ?? 0)) / 1000;
  const method = response.req.method ?? "GET";
  const route = response.route ?? "";
  const key = `${method} ${route}`;
  let byStatus = observers.get(key);
  if (!byStatus) {
    byStatus = new Map();
    observers.set(key, byStatus);
  }
  let observer = byStatus.get(status);
  if (!observer) {
    observer = durations.labels(method, route, String(status));
    byStatus.set(status, observer);
  }
  observer.observe(seconds);
  const line = `{"level":30,"time":${Date.now()},"service":"agora","request_id":${JSON.stringify(requestId)},"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status},"duration_ms":${Math.round(seconds * 100_000) / 100},"msg":"request"}\n`;
  log.write(line);
};

const send = (response: ServerResponse, status: number, payload: unknown) => {
  const body = JSON.stringify(payload);
  if (dutyHeaders) {
    const requestId = (payload as { request_id?: string }).request_id ?? randomUUID();
    doDuties(response, status, requestId);
    response.writeHead(status, {
      ...dutyHeaders,
      "content-type": "application/json",
      "x-request-id": requestId,
      "content-length": Buffer.byteLength(body),
    });
    response.end(body);

    return;
  }
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
};

/** Agora's envelope (its own builder), with a fresh request id as Agora gives each answer. */
const envelope = (data: unknown, meta: unknown = null) => successBody(data, meta, randomUUID());

/** The executor shape the repositories take, over a bare pg pool or client: their SQL, verbatim. */
const executor = (client: pg.Pool | pg.PoolClient) => ({
  async query<T>(text: string, values: readonly unknown[] = [], name?: string) {
    const result = await client.query({ text, values: values as unknown[], ...(name ? { name } : {}) });

    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  },
  async exec(script: string) {
    await client.query(script);
  },
});
const onPool = {
  users: createUserRepository(executor(pool)),
  listings: createListingRepository(executor(pool)),
  notifications: createNotificationRepository(executor(pool)),
  conversations: createConversationRepository(executor(pool)),
  messages: createMessageRepository(executor(pool), ids),
  connections: createChatConnectionRepository(executor(pool)),
  orders: createOrderRepository(executor(pool)),
  reportExport: createReportExportSource(executor(pool)),
};

/** The same authentication Agora does: verify the JWT, then Agora's one query for the live session. */
const authenticate = async (request: IncomingMessage): Promise<{ id: string }> => {
  const token = (request.headers.authorization ?? "").replace(/^Bearer /, "");
  const claims = await accessTokens.verify(token, new Date());
  if (!claims) {
    throw new Error("unauthenticated");
  }
  const { rows } = await pool.query({
    name: activeActorStatement.name,
    text: activeActorStatement.text,
    values: [claims.sessionId, new Date(), sessionMaxAgeSeconds],
  });
  if (!rows[0]) {
    throw new Error("revoked");
  }

  return { id: rows[0].id as string };
};

/** GET /api/v1/admin/orders: Agora's collection statements (count and page) and its presenter. */
const adminOrders: Handler = async (request, response, url) => {
  await authenticate(request);
  const q = url.searchParams.get("q") ?? undefined;
  const status = (url.searchParams.get("status") ?? undefined) as Parameters<
    typeof onPool.orders.findPage
  >[0]["status"];
  const page = {
    limit: Number(url.searchParams.get("limit") ?? 20),
    offset: Number(url.searchParams.get("offset") ?? 0),
  };
  const found = await onPool.orders.findPage({ q, status, serviceIds: undefined }, page);
  send(response, 200, envelope(found.items.map(toAdminOrderDto), { ...page, total: found.total }));
};

/** GET /api/v1/admin/exports/reports.csv: the same keyset batches through csv-stringify. */
const reportsCsv: Handler = async (request, response) => {
  await authenticate(request);
  response.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
  const rows = (async function* () {
    for await (const batch of onPool.reportExport.batches(1_000)) {
      yield* batch;
    }
  })();
  Readable.from(rows)
    .pipe(
      stringify({
        header: true,
        escape_formulas: true,
        cast: { date: (value) => value.toISOString(), boolean: (value) => (value ? "true" : "false") },
      }),
    )
    .pipe(response);
};

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

const search: Handler = async (_request, response, url) => {
  const q = url.searchParams.get("q") ?? undefined;
  const categoryId = url.searchParams.get("category_id") ?? undefined;
  const limit = Number(url.searchParams.get("limit") ?? 20);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const { rows } = await pool.query(listingSearchQuery({ q, categoryId, limit, offset }, new Date()));
  send(response, 200, envelope(rows[0]?.items ?? [], { limit, offset, total: rows[0]?.total ?? 0 }));
};

/**
 * The bench seeds no images (it runs without an object store, so no read URL can be signed): an
 * image here would mean a reference that does less than the API, which signs each image's URLs.
 */
const noImages = (assets: readonly unknown[]): [] => {
  if (assets.length > 0) {
    throw new Error("a record with images: the reference signs no read URLs (the bench has no object store)");
  }

  return [];
};

/**
 * GET /api/v1/listings/{id}: Agora's one statement through its repository (the listing with its
 * gallery, its items' images and its provider's logo), presented by Agora's presenter.
 */
const listing: Handler = async (_request, response, url) => {
  const found = await onPool.listings.findPublicPage(url.pathname.split("/").pop() ?? "", new Date());
  if (!found) {
    send(response, 404, { success: false });

    return;
  }
  for (const images of found.menuItemMedia.values()) {
    noImages(images);
  }
  const media = {
    media: noImages(found.media),
    menuItemMedia: new Map(),
    providerMedia: noImages(found.providerMedia),
  };
  send(response, 200, envelope(toPublicListingDetailDto(found.listing, media)));
};

/** GET /api/v1/auth/me: Agora's user statement through its repository, and its presenter. */
const me: Handler = async (request, response) => {
  const actor = await authenticate(request);
  const user = await onPool.users.findById(actor.id);
  if (!user) {
    throw new Error("no such user");
  }
  send(response, 200, envelope(toUserDto(user)));
};

/**
 * The order insert as Agora sent it before an order, its event and its idempotency key became one
 * statement (issue 17): the reference keeps that path, one statement per write in a transaction.
 */
const orderInsert = {
  name: "orders_insert",
  text: `INSERT INTO orders (id, customer_id, guest_email, guest_phone, guest_token_hash, guest_token_expires_at,
                           provider_id, listing_id, menu_item_id, item_name, unit_price_amount, quantity,
                           total_amount, currency, notes, schedule_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
};

/**
 * POST /api/v1/orders for a member, as separate statements in one transaction: BEGIN, the item,
 * the order, its outbox event, the idempotency key, COMMIT (with the session check, 7 round trips).
 */
const createOrder: Handler = async (request, response) => {
  const actor = await authenticate(request);
  const input = JSON.parse(await readBody(request)) as { menu_item_id: string; quantity: number };
  const key = String(request.headers["idempotency-key"] ?? "");
  const route = "POST /api/v1/orders";
  const now = new Date();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const db = executor(client);
    const item = await createMenuItemRepository(db).findPublicById(input.menu_item_id, now);
    if (!item) {
      await client.query("ROLLBACK");
      send(response, 422, { success: false });

      return;
    }
    const order = {
      id: v7(),
      customerId: actor.id,
      guestEmail: null,
      guestPhone: null,
      guestTokenHash: null,
      guestTokenExpiresAt: null,
      providerId: item.providerId,
      listingId: item.listingId,
      menuItemId: item.menuItemId,
      itemName: item.name,
      unitPriceAmount: item.priceAmount,
      quantity: input.quantity,
      totalAmount: item.priceAmount * input.quantity,
      currency: item.currency,
      notes: null,
      scheduleAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await db.query(
      orderInsert.text,
      [
        order.id,
        order.customerId,
        order.guestEmail,
        order.guestPhone,
        order.guestTokenHash,
        order.guestTokenExpiresAt,
        order.providerId,
        order.listingId,
        order.menuItemId,
        order.itemName,
        order.unitPriceAmount,
        order.quantity,
        order.totalAmount,
        order.currency,
        order.notes,
        order.scheduleAt,
        order.createdAt,
      ],
      orderInsert.name,
    );
    await createOutboxWriter(db, ids).append(
      {
        kind: "order.created",
        aggregateType: "order",
        aggregateId: order.id,
        payload: {
          order_id: order.id,
          provider_user_id: item.providerUserId,
          customer_id: actor.id,
          item_name: order.itemName,
          quantity: order.quantity,
        },
      },
      now,
    );
    const body = toOrderDto({
      ...order,
      providerUserId: item.providerUserId,
      status: "pending",
      paymentStatus: "unpaid",
      version: 1,
    });
    const saved = await createIdempotencyStore(db).save(
      {
        scope: actor.id,
        route,
        key,
        fingerprint: createHash("sha256").update(JSON.stringify(input)).digest("hex"),
        outcome: { type: "result", value: { order: body } },
        createdAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
      },
      now,
    );
    if (!saved) {
      await client.query("ROLLBACK");
      send(response, 409, { success: false });

      return;
    }
    await client.query("COMMIT");
    send(response, 201, envelope(body));
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
};

/** GET /api/v1/notifications: Agora's inbox page and unread count, and its presenter. */
const notifications: Handler = async (request, response, url) => {
  const actor = await authenticate(request);
  const [page, unreadCount] = await Promise.all([
    onPool.notifications.listPage(actor.id, {
      before: url.searchParams.get("before") ?? undefined,
      limit: 50,
    }),
    onPool.notifications.countUnread(actor.id),
  ]);
  send(
    response,
    200,
    envelope(page.items.map(toNotificationDto), {
      limit: 50,
      next_before: page.nextBefore,
      unread_count: unreadCount,
    }),
  );
};

/** GET /api/v1/chat/conversations: Agora's conversation page and unread count, and its presenter. */
const conversations: Handler = async (request, response, url) => {
  const actor = await authenticate(request);
  const [page, unreadCount] = await Promise.all([
    onPool.conversations.listSummariesPage(actor.id, {
      before: url.searchParams.get("before") ?? undefined,
      limit: 50,
    }),
    onPool.notifications.countUnread(actor.id),
  ]);
  // Agora's view of each conversation (viewConversation): a text-only last message signs nothing.
  const items = page.items.map((conversation) =>
    toConversationDto({
      conversation,
      lastMessage: conversation.lastMessage
        ? { message: conversation.lastMessage, media: noImages(conversation.lastMessage.media) }
        : null,
    }),
  );
  send(
    response,
    200,
    envelope(items, { limit: 50, next_before: page.nextBefore, unread_count: unreadCount }),
  );
};

/** GET /api/v1/community/feed: Agora's feed statement, and its presenter. */
const communityFeed: Handler = async (request, response, url) => {
  const actor = await authenticate(request);
  const before = url.searchParams.get("before") ?? undefined;
  const statement = feedStatement(actor.id, { before, limit: 50 });
  const { rows } = await pool.query<MomentRow>(statement);
  const moments = rows.map(toMoment);
  send(response, 200, envelope(moments.map(toMomentDto), cursorMeta(moments, 50)));
};

/** POST /api/v1/chat/conversations/{id}/messages: Agora's one send statement, on the pool, and its presenter. */
const sendMessage: Handler = async (request, response, url) => {
  const actor = await authenticate(request);
  const conversationId = url.pathname.split("/")[5] ?? "";
  const input = JSON.parse(await readBody(request)) as { body: string; client_message_id?: string };
  const id = v7();
  const outcome = await onPool.messages.send(
    {
      id,
      conversationId,
      senderId: actor.id,
      body: input.body.trim(),
      messageType: "text",
      clientMessageId: input.client_message_id ?? null,
      createdAt: new Date(),
    },
    {
      kind: "message.sent",
      aggregateType: "conversation",
      aggregateId: conversationId,
      payload: { conversation_id: conversationId, message_id: id, sender_id: actor.id },
    },
  );
  if (outcome.status !== "sent") {
    send(response, outcome.status === "not_found" ? 404 : 403, { success: false });

    return;
  }
  const message = outcome.message;
  send(response, 201, envelope(toMessageDto({ message, media: noImages(message.media) })));
};

const chatMessagesPath = /^\/api\/v1\/chat\/conversations\/[^/]+\/messages$/;

const routes = new Map<string, Handler>([
  ["GET /health", (_req, res) => send(res, 200, envelope({ status: "ok" }))],
  ["GET /api/v1", (_req, res) => send(res, 200, envelope({ name: "agora", version: "0.1.0" }))],
  ["GET /api/v1/listings", search],
  ["GET /api/v1/auth/me", me],
  ["POST /api/v1/orders", createOrder],
  ["GET /api/v1/notifications", notifications],
  ["GET /api/v1/chat/conversations", conversations],
  ["GET /api/v1/community/feed", communityFeed],
  ["GET /api/v1/admin/orders", adminOrders],
  ["GET /api/v1/admin/exports/reports.csv", reportsCsv],
]);

/**
 * The typing reference: raw `ws` sockets (`/ref/chat/typing?conversation=&user=&peer=`, no
 * authentication: the upgrade is not what is measured), a typing frame becomes Agora's own typing
 * statement (signalTyping: pg_notify unless the pair is blocked), and one raw LISTEN client
 * relays each signal (Agora's decoder) to the conversation's other sockets. No throttle, no
 * validation, no hub.
 */
const typingRooms = new Map<string, Set<{ ws: WebSocket; userId: string }>>();
let typingListener: Promise<pg.Client> | undefined;
const listenForTyping = () => {
  typingListener ??= (async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    client.on("error", () => {});
    client.on("notification", (notification) => {
      const signal = decodeChatSignal(notification.payload);
      if (signal?.type !== "typing") {
        return;
      }
      const text = JSON.stringify({
        type: "typing",
        data: { conversation_id: signal.conversationId, user_id: signal.userId },
      });
      for (const member of typingRooms.get(signal.conversationId) ?? []) {
        if (member.userId !== signal.userId) {
          member.ws.send(text);
        }
      }
    });
    await client.connect();
    await client.query(`LISTEN ${CHAT_CHANNEL}`);

    return client;
  })();

  return typingListener;
};
const typingServer = new WebSocketServer({ noServer: true, maxPayload: 1024 });

const reported = new Set<string>();
const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
const server = createServer((request, response: DutyResponse) => {
  if (dutyHeaders) {
    response.started = performance.now();
  }
  const url = new URL(request.url ?? "/", "http://reference");
  const routed = routes.get(`${request.method} ${url.pathname}`);
  const handler =
    routed ??
    (request.method === "GET" && url.pathname.startsWith("/api/v1/listings/") ? listing : undefined) ??
    (request.method === "POST" && chatMessagesPath.test(url.pathname) ? sendMessage : undefined);
  if (dutyHeaders) {
    response.route = routed
      ? url.pathname
      : handler === listing
        ? "/api/v1/listings/{id}"
        : "/api/v1/chat/conversations/{id}/messages";
  }
  if (!handler) {
    send(response, 404, { success: false });

    return;
  }
  Promise.resolve(handler(request, response, url)).catch((error: unknown) => {
    // A reference that fails would make every ratio meaningless: say so, once per kind of error.
    const message = error instanceof Error ? error.message : String(error);
    if (!reported.has(message)) {
      reported.add(message);
      process.stderr.write(`reference: ${request.method} ${url.pathname}: ${message}\n`);
    }
    send(response, 500, { success: false });
  });
});
server.on("upgrade", (request, socket, head) => {
  const url = new URL(request.url ?? "/", "http://reference");
  const conversationId = url.searchParams.get("conversation") ?? "";
  const userId = url.searchParams.get("user") ?? "";
  const peerId = url.searchParams.get("peer") ?? "";
  if (url.pathname !== "/ref/chat/typing" || !conversationId || !userId) {
    socket.destroy();

    return;
  }
  void listenForTyping().then(() =>
    typingServer.handleUpgrade(request, socket, head, (ws) => {
      const member = { ws, userId };
      let room = typingRooms.get(conversationId);
      if (!room) {
        room = new Set();
        typingRooms.set(conversationId, room);
      }
      room.add(member);
      ws.on("message", (data) => {
        let type: unknown;
        try {
          type = (JSON.parse(String(data)) as { type?: unknown }).type;
        } catch {
          return;
        }
        if (type === "typing") {
          onPool.connections.signalTyping(conversationId, userId, peerId).catch(() => {});
        }
      });
      ws.on("error", () => {});
      ws.on("close", () => room?.delete(member));
    }),
  );
});
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : port}\n`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
