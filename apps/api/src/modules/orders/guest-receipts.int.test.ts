// Guest receipts by mail, through the outbox and a real SMTP server that captures what it gets:
// one receipt per guest order (rendered at delivery: items, total, payment instructions, a link
// whose fragment carries the guest capability), a second mail when the provider confirms, no mail
// after the receipt's unsubscribe link, none for members (they keep their inbox rows), and the
// capability in no log line.
import { createHmac } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createSmtpMailer } from "@agora/adapters/mail/smtp-mailer";
import { deriveKey, KEY_PURPOSES } from "@agora/domain/common/derived-keys";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";

type Received = { to: string; subject: string; text: string };
type Body = { data: Record<string, unknown> & { id: string }; error: { code: string } | null };

const LINK_BASE = "https://app.agora.test";

/** The message's headers and body, its quoted-printable soft breaks and escapes undone. */
const parse = (raw: string): Received => {
  const message = raw.replace(/\r\n/g, "\n");
  const [head = "", ...rest] = message.split("\n\n");
  const unfolded = head.replace(/\n[ \t]+/g, " ");
  const header = (name: string) => unfolded.match(new RegExp(`^${name}: (.*)$`, "im"))?.[1]?.trim() ?? "";
  const text = rest
    .join("\n\n")
    .replace(/=\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

  return { to: header("To"), subject: header("Subject"), text };
};

describe("guest receipts by mail", () => {
  let h: Harness;
  let server: SMTPServer;
  const received: Received[] = [];
  let shop: Awaited<ReturnType<Harness["orderable"]>>;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push(parse(Buffer.concat(chunks).toString("utf8")));
          callback();
        });
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const { port } = server.server.address() as AddressInfo;
    const mailer = createSmtpMailer({
      host: "127.0.0.1",
      port,
      user: undefined,
      password: undefined,
      secure: false,
      from: "agora@localhost",
    });
    h = await createHarness({
      mail: { mailer, kind: "smtp", close: () => mailer.close() },
      config: {
        guestLinkBaseUrl: LINK_BASE,
        paymentInstructions: {
          walletone_qr: "Scan the WalletOne code at the counter.",
          wallettwo_qr: undefined,
        },
      },
    });
    shop = await h.orderable({ priceAmount: 1250, currency: "EUR" });
  });
  afterAll(async () => {
    await h?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const mailsTo = (email: string) => received.filter((mail) => mail.to.includes(email));
  const placeGuestOrder = async (email: string, key: string) => {
    const res = await h.post<Body>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 2, email, phone: "+15550100" },
      { headers: { "idempotency-key": key } },
    );
    expect(res.status).toBe(201);

    return { id: res.body.data.id, token: String(res.body.data.guest_access_token) };
  };
  const move = async (id: string, status: string, version: number, who: SignedIn = shop.seller) => {
    const res = await h.post<Body>(
      `/api/v1/orders/${id}/transition`,
      { status, version },
      { token: who.accessToken },
    );
    expect(res.status).toBe(200);
  };
  const linkIn = (text: string, path: string) =>
    text.match(new RegExp(`${LINK_BASE.replace(/\./g, "\\.")}${path}#token=([0-9a-f]{64})`))?.[1];

  it("mails one receipt per order: items, total, payment instructions and a link that opens the order", async () => {
    const email = "ada.guest@example.com";
    const { id, token } = await placeGuestOrder(email, "receipt-1");
    await h.runOutboxOnce();
    // A retried creation (the same key) replays the order: still one receipt.
    await placeGuestOrder(email, "receipt-1");
    await h.runOutboxOnce();

    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const [receipt] = mails;
    expect(receipt?.subject).toBe("Your Agora order");
    expect(receipt?.text).toContain("2 x Dumplings at 12.50 EUR");
    expect(receipt?.text).toContain("Total: 25.00 EUR");
    expect(receipt?.text).toContain("WalletOne QR: Scan the WalletOne code at the counter.");
    expect(receipt?.text).not.toContain("WalletTwo");
    const linked = linkIn(receipt?.text ?? "", `/guest/orders/${id}`);
    expect(linked).toBe(token);

    const opened = await h.get<Body>(`/api/v1/guest/orders/${id}`, {
      headers: { "x-guest-access-token": linked ?? "" },
    });
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ id, total_amount: 2500, currency: "EUR" });
  });

  it("mails again when the provider confirms, and nothing after the unsubscribe link", async () => {
    const email = "grace.guest@example.com";
    const { id } = await placeGuestOrder(email, "receipt-2");
    await h.runOutboxOnce();
    await move(id, "confirmed", 1);
    await h.runOutboxOnce();

    const mails = mailsTo(email);
    expect(mails.map((mail) => mail.subject)).toEqual(["Your Agora order", "Your Agora order is confirmed"]);
    expect(mails[1]?.text).toContain("Your order is now confirmed by the provider.");

    const stop = linkIn(mails[1]?.text ?? "", `/guest/orders/${id}/unsubscribe`);
    expect(stop).toMatch(/^[0-9a-f]{64}$/);
    const wrong = await h.post<Body>(`/api/v1/guest/orders/${id}/unsubscribe`, { token: "0".repeat(64) });
    expect(wrong.status).toBe(404);
    const first = await h.post<Body>(`/api/v1/guest/orders/${id}/unsubscribe`, { token: stop });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ order_id: id, mail: "stopped" });
    const again = await h.post<Body>(`/api/v1/guest/orders/${id}/unsubscribe`, { token: stop });
    expect(again.status).toBe(200);

    await move(id, "in_progress", 2);
    await move(id, "completed", 3);
    await h.runOutboxOnce();
    expect(mailsTo(email)).toHaveLength(2);
  });

  it("refuses an unsubscribe token of another order, and a malformed one with 422", async () => {
    const one = await placeGuestOrder("one.guest@example.com", "receipt-3");
    const two = await placeGuestOrder("two.guest@example.com", "receipt-4");
    await h.runOutboxOnce();
    const stop = linkIn(
      mailsTo("one.guest@example.com")[0]?.text ?? "",
      `/guest/orders/${one.id}/unsubscribe`,
    );

    const crossed = await h.post<Body>(`/api/v1/guest/orders/${two.id}/unsubscribe`, { token: stop });
    expect(crossed.status).toBe(404);
    const malformed = await h.post<Body>(`/api/v1/guest/orders/${two.id}/unsubscribe`, { token: "nope" });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error?.code).toBe("validation_failed");

    await move(two.id, "confirmed", 1);
    await h.runOutboxOnce();
    expect(mailsTo("two.guest@example.com")).toHaveLength(2);
  });

  describe('the key of the unsubscribe tokens (docs/accounts.md, "Keys from TOKEN_SECRET")', () => {
    /** An order's unsubscribe token under a key: an HMAC of its id, as the links carry it. */
    const stopTokenUnder = (key: Buffer | string, orderId: string) =>
      createHmac("sha256", key).update(`guest-mail-stop:${orderId}`).digest("hex");
    /** The key links were made under before the derived key (a mail sent before the deploy). */
    const legacyKey = () => `${h.config.tokenSecret}:guest-mail-stop`;

    it("mails links under the derived key, not the legacy one", async () => {
      const email = "new.link.guest@example.com";
      const { id } = await placeGuestOrder(email, "receipt-6");
      await h.runOutboxOnce();
      const stop = linkIn(mailsTo(email)[0]?.text ?? "", `/guest/orders/${id}/unsubscribe`);

      expect(stop).toBe(stopTokenUnder(deriveKey(h.config.tokenSecret, KEY_PURPOSES.guestMailStop), id));
      expect(stop).not.toBe(stopTokenUnder(legacyKey(), id));
    });

    it("still stops the mails with a link made under the legacy key (the transition); another key's is 404", async () => {
      const email = "old.link.guest@example.com";
      const { id } = await placeGuestOrder(email, "receipt-7");
      await h.runOutboxOnce();

      const raw = await h.post<Body>(`/api/v1/guest/orders/${id}/unsubscribe`, {
        token: stopTokenUnder(h.config.tokenSecret, id),
      });
      expect(raw.status).toBe(404);
      const legacy = await h.post<Body>(`/api/v1/guest/orders/${id}/unsubscribe`, {
        token: stopTokenUnder(legacyKey(), id),
      });
      expect(legacy.status).toBe(200);
      expect(legacy.body.data).toEqual({ order_id: id, mail: "stopped" });

      await move(id, "confirmed", 1);
      await h.runOutboxOnce();
      expect(mailsTo(email)).toHaveLength(1);
    });
  });

  it("mails members nothing: they keep their inbox rows", async () => {
    const member = await h.signIn();
    const res = await h.post<Body>(
      "/api/v1/orders",
      { menu_item_id: shop.itemId, quantity: 1 },
      { token: member.accessToken },
    );
    expect(res.status).toBe(201);
    await h.runOutboxOnce();
    await move(res.body.data.id, "confirmed", 1);
    await h.runOutboxOnce();

    expect(mailsTo(member.user.email)).toEqual([]);
    const inbox = await h.get<{ data: { kind: string }[] }>("/api/v1/notifications", {
      token: member.accessToken,
    });
    expect(inbox.body.data.map((row) => row.kind).sort()).toEqual(["order.created", "order.status_changed"]);
  });

  it("writes no guest capability and no unsubscribe token into any log line", async () => {
    const email = "quiet.guest@example.com";
    const { id, token } = await placeGuestOrder(email, "receipt-5");
    await h.runOutboxOnce();
    const stop = linkIn(mailsTo(email)[0]?.text ?? "", `/guest/orders/${id}/unsubscribe`) ?? "";
    await h.get(`/api/v1/guest/orders/${id}`, { headers: { "x-guest-access-token": token } });
    await h.post(`/api/v1/guest/orders/${id}/unsubscribe`, { token: stop });
    await h.post(`/api/v1/guest/orders/${id}/unsubscribe`, { token: `${stop.slice(0, 63)}x` });

    expect(h.logs.raw.length).toBeGreaterThan(0);
    expect(h.logs.raw.filter((line) => line.includes(token))).toEqual([]);
    expect(h.logs.raw.filter((line) => line.includes(stop))).toEqual([]);
  });
});
