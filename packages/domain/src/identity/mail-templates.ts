import type { OutgoingMail } from "../common/mail";
import type { CodePurpose } from "./identity.types";

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const wording: Record<CodePurpose, { subject: string; intro: string; outro: string }> = {
  verification: {
    subject: "Verify your Agora account",
    intro: "Use this code to verify your email address:",
    outro:
      "If you did not create an Agora account with this username, ignore this mail; if you want an account, register again or reset the password, and the address is yours.",
  },
  sign_in: {
    subject: "Your Agora sign-in code",
    intro: "Use this code to finish signing in:",
    outro: "If you did not try to sign in, change your password: someone knows it.",
  },
  reset: {
    subject: "Reset your Agora password",
    intro: "Use this code to choose a new password:",
    outro: "If you did not ask to reset your password, you can ignore this mail.",
  },
  email_change: {
    subject: "Confirm your new Agora email address",
    intro: "Use this code to make this address the one of your Agora account:",
    outro:
      "If you did not ask to change your Agora email address, ignore this mail; nothing changes without the code.",
  },
};

/**
 * The link of a verification mail: VERIFY_EMAIL_URL with the account's `user_id` and the `code`,
 * everything verify-email needs, so whoever holds the mailbox can verify without the registration's
 * response.
 */
export const verificationLink = (base: string, userId: string, code: string): string => {
  const url = new URL(base);
  url.searchParams.set("user_id", userId);
  url.searchParams.set("code", code);

  return url.toString();
};

/**
 * The code mail: plain text with the code alone on its own line, and the same as simple HTML. A
 * verification mail also names the username it verifies and carries a link with the account id.
 */
export const codeMail = (input: {
  to: string;
  name: string;
  purpose: CodePurpose;
  code: string;
  validMinutes: number;
  verification?: { username: string; link: string } | undefined;
}): OutgoingMail => {
  const { subject, intro, outro } = wording[input.purpose];
  const greeting = input.name ? `Hi ${input.name},` : "Hi,";
  const expiry = `The code expires in ${input.validMinutes} minutes and works once.`;
  const verification = input.verification;
  const account = verification ? `This verifies the account with the username ${verification.username}.` : "";
  const open = verification ? "Or open this link on the device with the Agora app:" : "";
  const text = [
    greeting,
    "",
    intro,
    "",
    input.code,
    "",
    ...(verification ? [account, open, verification.link, ""] : []),
    expiry,
    outro,
    "",
    "Agora",
    "",
  ].join("\n");
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p style="font-size:28px;font-weight:bold;letter-spacing:4px">${input.code}</p>`,
    ...(verification
      ? [
          `<p>${escapeHtml(account)}<br>${escapeHtml(open)}<br>`,
          `<a href="${escapeHtml(verification.link)}">${escapeHtml(verification.link)}</a></p>`,
        ]
      : []),
    `<p>${escapeHtml(expiry)}<br>${escapeHtml(outro)}</p>`,
    "<p>Agora</p></body></html>",
  ].join("");

  return { to: input.to, subject, text, html };
};

/** The time of a notice, as the mails say it: `2026-11-29 06:10 UTC`. */
const utcMinute = (at: Date): string => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A plain notice (no code): text paragraphs, and the same as simple HTML. */
const noticeMail = (input: {
  to: string;
  name: string;
  subject: string;
  paragraphs: string[];
}): OutgoingMail => {
  const greeting = input.name ? `Hi ${input.name},` : "Hi,";
  const text = [greeting, "", ...input.paragraphs.flatMap((paragraph) => [paragraph, ""]), "Agora", ""].join(
    "\n",
  );
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...input.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    "<p>Agora</p></body></html>",
  ].join("");

  return { to: input.to, subject: input.subject, text, html };
};

const purposeNames: Record<CodePurpose, string> = {
  verification: "verification",
  sign_in: "sign-in",
  reset: "password reset",
  email_change: "email change",
};

/** To the owner of an account whose purpose was locked after too many wrong codes. */
export const codesLockedMail = (input: {
  to: string;
  name: string;
  purpose: CodePurpose;
  lockedUntil: Date;
}): OutgoingMail => {
  const what = purposeNames[input.purpose];
  const until = utcMinute(input.lockedUntil);

  return noticeMail({
    to: input.to,
    name: input.name,
    subject: `Too many wrong ${what} codes for your Agora account`,
    paragraphs: [
      `Too many wrong ${what} codes were entered for your account. To protect it, no ${what} code will be sent or accepted until ${until}.`,
      input.purpose === "sign_in"
        ? "Sign-in codes are only sent after the right password. If this was not you, someone knows your password: reset it as soon as codes work again."
        : "If this was not you, someone may be trying to get into your account; your password is unchanged.",
    ],
  });
};

/** To the owner of an address someone tried to register again. */
export const registrationAttemptMail = (input: { to: string; name: string }): OutgoingMail =>
  noticeMail({
    to: input.to,
    name: input.name,
    subject: "Someone tried to register with your email address",
    paragraphs: [
      "Someone just tried to create an Agora account with this email address, which already has an account. No new account was created and yours is unchanged.",
      "If it was you, sign in instead, or reset your password if you forgot it (an account that was never verified can ask for a new verification code). If it was not you, you can ignore this mail.",
    ],
  });

/** To the owner of an account many wrong passwords were tried for, from any number of clients. */
export const loginFailuresMail = (input: { to: string; name: string; failures: number }): OutgoingMail =>
  noticeMail({
    to: input.to,
    name: input.name,
    subject: "Many wrong passwords were tried for your Agora account",
    paragraphs: [
      `${input.failures} wrong passwords were tried for your account in the last 15 minutes. Your account is not locked: you can still sign in with your password and the code we mail you.`,
      "If this was not you, someone may be guessing your password; choose a long password that you use nowhere else, and reset it if you think it is known.",
    ],
  });

/** To the owner of an account whose password was changed by a signed-in session. */
export const passwordChangedMail = (input: {
  to: string;
  name: string;
  at: Date;
  sessionsEnded: number;
}): OutgoingMail =>
  noticeMail({
    to: input.to,
    name: input.name,
    subject: "Your Agora password was changed",
    paragraphs: [
      `The password of your Agora account was changed at ${utcMinute(input.at)} from a signed-in device. ${
        input.sessionsEnded === 1
          ? "One other session was signed out."
          : `${input.sessionsEnded} other sessions were signed out.`
      }`,
      'If this was not you, reset your password now from the sign-in screen ("Forgot password"): that signs out every session, including the one that changed it.',
    ],
  });

const platformNames: Record<string, string> = {
  ios: "an iPhone or iPad",
  android: "an Android device",
  web: "a web browser",
};

/** To the owner of an account signed in from a platform and network not seen in the last 90 days. */
export const newSignInMail = (input: {
  to: string;
  name: string;
  at: Date;
  platform: string | null;
  addressHint: string | null;
  userAgent: string | null;
}): OutgoingMail => {
  const device = input.platform
    ? (platformNames[input.platform] ?? input.platform)
    : "a device that did not say what it is";
  const network = input.addressHint ? ` on the network ${input.addressHint}` : "";
  const agent = input.userAgent ? ` (it said: ${input.userAgent.slice(0, 120)})` : "";

  return noticeMail({
    to: input.to,
    name: input.name,
    subject: "New sign-in to your Agora account",
    paragraphs: [
      `Your Agora account was signed in at ${utcMinute(input.at)} from ${device}${network}${agent}. We tell you because it has not signed in from there in the last 90 days.`,
      "If this was you, there is nothing to do. If it was not, open Agora, go to Account > Sessions, end that session, and change your password: a sign-in needs your password and a code mailed to this address, so check this mailbox's password too.",
    ],
  });
};

/**
 * To the owner of an account whose data export is ready: the download link (when the API's public
 * URL is configured, PUBLIC_API_URL) and until when it works.
 */
export const dataExportReadyMail = (input: {
  to: string;
  name: string;
  link: string | null;
  expiresAt: Date;
}): OutgoingMail => {
  const until = utcMinute(input.expiresAt);

  return noticeMail({
    to: input.to,
    name: input.name,
    subject: "Your Agora data export is ready",
    paragraphs: [
      `The copy of your data you asked for is ready. You can download it until ${until}; after that it is deleted.`,
      input.link
        ? `Download it here (the link works only for you; do not share it): ${input.link}`
        : "Download it from the app, under your account's data export.",
      "If you did not ask for a copy of your data, someone may be signed in to your account: change your password.",
    ],
  });
};

/** The link of an email-changed mail: EMAIL_UNDO_URL with the undo `token`. */
export const emailUndoLink = (base: string, token: string): string => {
  const url = new URL(base);
  url.searchParams.set("token", token);

  return url.toString();
};

/** To the owner of an address someone (signed in, with the password) tried to move an account to. */
export const emailChangeAttemptMail = (input: { to: string; name: string }): OutgoingMail =>
  noticeMail({
    to: input.to,
    name: input.name,
    subject: "Someone tried to use your email address for another Agora account",
    paragraphs: [
      "Someone signed in to another Agora account just asked to change its email address to this one, which already has an account. Nothing was changed and yours is unchanged.",
      "If it was you, sign in to this account instead. If it was not you, you can ignore this mail.",
    ],
  });

/** To the old address of an account whose email was changed: the undo link, valid `validDays`. */
export const emailChangedMail = (input: {
  to: string;
  name: string;
  link: string;
  validDays: number;
}): OutgoingMail =>
  noticeMail({
    to: input.to,
    name: input.name,
    subject: "The email address of your Agora account was changed",
    paragraphs: [
      "The email address of your Agora account was just changed, and this address no longer signs in.",
      `If you did not do this, open this link within ${input.validDays} days: it puts this address back and signs every device out of the account: ${input.link}`,
      "Then reset your password from this address: whoever changed the address knows it.",
      "If it was you, you can ignore this mail.",
    ],
  });
