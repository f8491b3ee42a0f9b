/**
 * Type tests of the client, checked by `tsc` (the package's typecheck): each `@ts-expect-error`
 * marks a misuse that must not compile; if the client ever accepts it, the directive is unused and
 * the typecheck fails.
 */
import { type AgoraError, createAgoraClient } from "../src/client";
import { createAgoraAdminClient } from "../src/client.admin";
import type { OrderDto } from "../src/orders";

const client = createAgoraClient({ baseUrl: "http://localhost:8080" });
const admin = createAgoraAdminClient({ baseUrl: "http://localhost:8080" });

export const typeTests = async () => {
  // Bodies are the contract's request schemas.
  await client.auth.login({ email: "a@example.com", password: "secret" });
  // @ts-expect-error a wrong body field name
  await client.auth.login({ mail: "a@example.com", password: "secret" });
  // @ts-expect-error a missing required body field
  await client.auth.loginVerify({ email: "a@example.com" });
  // @ts-expect-error quantity is a number
  await client.orders.create({ menu_item_id: "x", quantity: "2" });
  // @ts-expect-error a status the transition does not take
  await client.orders.transition("order-id", { status: "shipped", version: 1 });
  // @ts-expect-error the path parameter is required
  await client.orders.get();

  // Results are the contract's response schemas.
  const session = await client.auth.loginVerify({ email: "a@example.com", code: "123456" });
  const token: string = session.access_token;
  // @ts-expect-error no such response field
  session.accessToken;

  const page = await client.listings.list({ q: "dumplings", limit: 10 });
  const total: number = page.meta.total;
  const name: string | undefined = page.data[0]?.name;
  // @ts-expect-error a list result is { data, meta }, not the array
  page.length;
  // @ts-expect-error limit is a number
  await client.listings.list({ limit: "10" });

  const order: OrderDto = await client.orders.get("order-id");
  // @ts-expect-error total_amount is a number
  const amount: string = order.total_amount;
  // @ts-expect-error DELETE /menu-items/{id} needs its listing_id query
  await client.menuItems.delete("item-id");

  // Admin methods live only on the admin client.
  const orders = await admin.admin.orders.list({ status: "pending" });
  const status: OrderDto["status"] | undefined = orders.data[0]?.status;
  // @ts-expect-error the member client has no admin surface
  client.admin;
  // @ts-expect-error a status the orders collection does not know
  await admin.admin.orders.list({ status: "shipped" });

  const csv: string = await admin.admin.community.exportReportsCsv();

  // The upload helper resolves to the asset id; purpose and mimeType are the contract's enums.
  const assetId: string = await client.media.upload(new Blob([]), { purpose: "moment" });
  await client.media.upload(new Uint8Array(4), { purpose: "listing", mimeType: "image/webp" });
  await admin.media.upload(new ArrayBuffer(4), { purpose: "avatar", mimeType: "image/png" });
  // @ts-expect-error a purpose the contract does not know
  await client.media.upload(new Blob([]), { purpose: "wallpaper" });
  // @ts-expect-error a type the service does not take
  await client.media.upload(new Uint8Array(4), { purpose: "moment", mimeType: "image/gif" });
  // @ts-expect-error the purpose is required
  await client.media.upload(new Blob([]), {});
  // @ts-expect-error a string is not bytes
  await client.media.upload("data:image/png;base64,AAAA", { purpose: "moment" });
  // @ts-expect-error it resolves to the id, not to the ticket
  (await client.media.upload(new Blob([]), { purpose: "moment" })).upload_url;
  const confirmed = await client.media.confirm(assetId);
  const readUrl: string | null = confirmed.url;
  // @ts-expect-error a read's url is null until the asset is ready
  const alwaysUrl: string = confirmed.url;

  const failure = (error: AgoraError) => {
    const code: "not_found" | string = error.code;
    const requestId: string | null = error.requestId;
    const uploadFailed: typeof error.code = "upload_failed";
    // @ts-expect-error not a code the service has
    const impossible: typeof error.code = "teapot";

    return [code, requestId, uploadFailed, impossible];
  };

  return [token, total, name, amount, status, csv, readUrl, alwaysUrl, failure];
};
