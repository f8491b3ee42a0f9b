import type { OutgoingMail } from "../shared/mail";
import type { CodePurpose } from "./identity.types";

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const wording: Record<CodePurpose, { subject: string; intro: string; outro: string }> = {
  verification: {
    subject: "Verify your Agora account",
    intro: "Use this code to verify your email address:",
    outro: "If you did not create an Agora account, you can ignore this mail.",
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
};

/** The code mail: plain text with the code alone on its own line, and the same as simple HTML. */
export const codeMail = (input: {
  to: string;
  name: string;
  purpose: CodePurpose;
  code: string;
  validMinutes: number;
}): OutgoingMail => {
  const { subject, intro, outro } = wording[input.purpose];
  const greeting = input.name ? `Hi ${input.name},` : "Hi,";
  const expiry = `The code expires in ${input.validMinutes} minutes and works once.`;
  const text = [greeting, "", intro, "", input.code, "", expiry, outro, "", "Agora", ""].join("\n");
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p style="font-size:28px;font-weight:bold;letter-spacing:4px">${input.code}</p>`,
    `<p>${escapeHtml(expiry)}<br>${escapeHtml(outro)}</p>`,
    "<p>Agora</p></body></html>",
  ].join("");

  return { to: input.to, subject, text, html };
};
