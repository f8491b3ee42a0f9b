import { createHmac, timingSafeEqual } from "node:crypto";
import { NotFoundError } from "../common/app-error";
import type { Clock } from "../common/clock";
import { acceptedKeys, deriveKey, KEY_PURPOSES, type KeyRing } from "../common/derived-keys";
import type { Mailer, OutgoingMail } from "../common/mail";
import { createSecretBox, type SecretBox } from "../common/secret-box";
import type { GuestReceiptRepository, GuestReceiptSource } from "./orders.ports";

/**
 * Receipts for guests (docs/retries.md): a guest order's buyer has no inbox, so the outbox mails
 * them a receipt when the order is placed and again when it moves. The mail is rendered here, at
 * delivery, from the order as it is then; its link opens the guest order with the guest's
 * capability in the fragment (never sent to a server, so it reaches no log), and its unsubscribe
 * link stops the order's mails with a token of its own.
 */

export type GuestReceiptSettings = {
  /** The page that opens a guest order (GUEST_LINK_BASE_URL); no receipts without it. */
  linkBaseUrl: string | undefined;
  /** The key new unsubscribe tokens are made under (the current key of KEY_PURPOSES.guestMailStop). */
  stopKey: Buffer;
  /** The configured payment instructions, by method (unset ones are left out). */
  paymentInstructions: Readonly<Record<string, string | undefined>>;
};

export type GuestReceiptDeps = {
  receipts: Pick<GuestReceiptRepository, "findGuestReceipt">;
  mailer: Mailer;
  /** Opens the sealed guest capability (the orders' secret box). */
  secrets: SecretBox;
  settings: GuestReceiptSettings;
};

export type ReceiptOccasion = "placed" | "updated";

/** The token of an order's unsubscribe link: an HMAC of its id, so nothing is stored for it. */
export const guestMailStopToken = (stopKey: Buffer, orderId: string): string =>
  createHmac("sha256", stopKey).update(`guest-mail-stop:${orderId.toLowerCase()}`).digest("hex");

const methodNames: Readonly<Record<string, string>> = {
  walletone_qr: "WalletOne QR",
  wallettwo_qr: "WalletTwo QR",
};

const statusWords: Readonly<Record<string, string>> = {
  pending: "placed, waiting for the provider",
  confirmed: "confirmed by the provider",
  in_progress: "in progress",
  completed: "completed",
  cancelled: "cancelled",
};

/** An amount in minor units as the currency writes it (e.g. 1250 EUR is 12.50 EUR). */
const money = (amount: number, currency: string): string => {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2;
  } catch {
    // An unknown code: two decimals.
  }

  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
};

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The receipt mail of one guest order, as it is at delivery. */
export const renderGuestReceipt = (
  source: GuestReceiptSource,
  links: { order: string; stop: string },
  occasion: ReceiptOccasion,
  paymentInstructions: GuestReceiptSettings["paymentInstructions"],
): OutgoingMail => {
  const { order } = source;
  const status = statusWords[order.status] ?? order.status;
  const subject =
    occasion === "placed" ? "Your Agora order" : `Your Agora order is ${order.status.replace("_", " ")}`;
  const instructions = Object.entries(paymentInstructions).flatMap(([method, text]) =>
    text ? [{ method: methodNames[method] ?? method, text }] : [],
  );
  const lines = [
    occasion === "placed" ? "Thank you for your order." : `Your order is now ${status}.`,
    "",
    `Order ${order.id}`,
    `${order.quantity} x ${order.itemName} at ${money(order.unitPriceAmount, order.currency)}`,
    `Total: ${money(order.totalAmount, order.currency)}`,
    `Status: ${status}; payment: ${order.paymentStatus}`,
    ...(instructions.length > 0
      ? ["", "How to pay:", ...instructions.map(({ method, text }) => `- ${method}: ${text}`)]
      : []),
    "",
    "Open your order (keep this link private: it opens the order without an account):",
    links.order,
    "",
    "Stop emails about this order:",
    links.stop,
  ];
  const html = [
    `<p>${escapeHtml(lines[0] ?? "")}</p>`,
    `<p>Order ${escapeHtml(order.id)}<br>${escapeHtml(lines[3] ?? "")}<br>`,
    `<strong>${escapeHtml(lines[4] ?? "")}</strong><br>${escapeHtml(lines[5] ?? "")}</p>`,
    ...(instructions.length > 0
      ? [
          "<p>How to pay:</p><ul>",
          ...instructions.map(({ method, text }) => `<li>${escapeHtml(method)}: ${escapeHtml(text)}</li>`),
          "</ul>",
        ]
      : []),
    `<p><a href="${escapeHtml(links.order)}">Open your order</a> (keep this link private: it opens the order without an account).</p>`,
    `<p><a href="${escapeHtml(links.stop)}">Stop emails about this order</a></p>`,
  ].join("\n");

  return { to: source.email, subject, text: lines.join("\n"), html };
};

/**
 * Mails the guest order's receipt, unless it is no guest order with a sealed capability, the
 * guest stopped its mails, or no link base is configured. A provider failure throws (the event
 * is retried: delivery is at least once, so a receipt may arrive twice, never a stale one).
 */
export const mailGuestReceipt = async (
  deps: GuestReceiptDeps,
  orderId: string,
  occasion: ReceiptOccasion,
): Promise<void> => {
  const base = deps.settings.linkBaseUrl;
  if (!base) {
    return;
  }
  const source = await deps.receipts.findGuestReceipt(orderId);
  if (!source || source.mailStoppedAt !== null) {
    return;
  }
  const token = deps.secrets.open(source.sealedToken);
  const id = encodeURIComponent(source.order.id);
  const links = {
    order: `${base}/guest/orders/${id}#token=${token}`,
    stop: `${base}/guest/orders/${id}/unsubscribe#token=${guestMailStopToken(deps.settings.stopKey, source.order.id)}`,
  };
  await deps.mailer.send(renderGuestReceipt(source, links, occasion, deps.settings.paymentInstructions));
};

/**
 * Stops a guest order's mails, given its unsubscribe token (no account needed): one made under
 * any key the ring accepts (a link in a mail sent before the key changed still works). Idempotent:
 * a second request answers the same. A wrong token, or an order that is no guest's, is 404.
 */
export const stopGuestMail = async (
  deps: { receipts: Pick<GuestReceiptRepository, "stopGuestMail">; clock: Clock; stopKey: KeyRing },
  orderId: string,
  token: string,
): Promise<{ orderId: string }> => {
  const given = Buffer.from(token.toLowerCase());
  const matches = acceptedKeys(deps.stopKey).map((key) => {
    const expected = Buffer.from(guestMailStopToken(key, orderId));

    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches.includes(true)) {
    throw new NotFoundError("Order");
  }
  if (!(await deps.receipts.stopGuestMail(orderId, deps.clock.now()))) {
    throw new NotFoundError("Order");
  }

  return { orderId: orderId.toLowerCase() };
};

/** What the outbox needs to mail receipts, from the process's configuration. */
export const guestReceiptSetup = (
  tokenSecret: string,
  config: {
    guestLinkBaseUrl: string | undefined;
    paymentInstructions: Readonly<Record<string, string | undefined>>;
  },
): Pick<GuestReceiptDeps, "secrets" | "settings"> => ({
  secrets: createSecretBox(tokenSecret, KEY_PURPOSES.guestCapabilities),
  settings: {
    linkBaseUrl: config.guestLinkBaseUrl,
    stopKey: deriveKey(tokenSecret, KEY_PURPOSES.guestMailStop),
    paymentInstructions: config.paymentInstructions,
  },
});
