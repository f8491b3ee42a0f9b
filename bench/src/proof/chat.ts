// Chat across processes: each recipient holds a WebSocket on one API process while its sender posts
// messages through the other; every message that got its 201 must arrive on the socket exactly
// once. A send that failed is sent again with the same client_message_id (the server replays it).

import { sleep } from "@agora/testing/eventually";
import type pg from "pg";
import WebSocket from "ws";
import type { ProofWorld } from "./world.ts";

export type ChatCheck = {
  requests: number;
  ok: number;
  retries: number;
  duplicates: number;
  lost: number;
  sockets: number;
};

const openSocket = (origin: string, conversationId: string, token: string, onFrame: (text: string) => void) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(
      `${origin.replace("http", "ws")}/api/v1/chat/conversations/${conversationId}/realtime`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    ws.on("message", (data) => onFrame(String(data)));
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });

export const proveChat = async ({
  client,
  world,
  sendVia,
  listenOn,
  perConversation,
  concurrency,
}: {
  client: pg.Client;
  world: ProofWorld;
  /** The API process the messages are posted to. */
  sendVia: string;
  /** The API process holding the recipients' sockets. */
  listenOn: string;
  perConversation: number;
  concurrency: number;
}): Promise<ChatCheck> => {
  // client_message_id → how many frames carried it, per socket (one socket per conversation).
  const frames = new Map<string, number>();
  const sockets = await Promise.all(
    world.conversations.map((conversation) =>
      openSocket(listenOn, conversation.id, conversation.recipient.token, (text) => {
        const frame = JSON.parse(text) as { type: string; data?: { client_message_id?: string | null } };
        const key = frame.type === "message" ? frame.data?.client_message_id : undefined;
        if (key) {
          frames.set(key, (frames.get(key) ?? 0) + 1);
        }
      }),
    ),
  );
  try {
    const messages = world.conversations.flatMap((conversation) =>
      Array.from({ length: perConversation }, (_, index) => ({
        conversation,
        key: `proof-${conversation.id.slice(0, 8)}-${index}`,
      })),
    );
    let requests = 0;
    let ok = 0;
    let retries = 0;
    const acknowledged = new Set<string>();
    let next = 0;
    const sender = async () => {
      while (next < messages.length) {
        const message = messages[next] as (typeof messages)[number];
        next += 1;
        for (let attempt = 0; attempt < 10 && !acknowledged.has(message.key); attempt += 1) {
          if (attempt > 0) {
            retries += 1;
            await sleep(100 * attempt);
          }
          requests += 1;
          const response = await fetch(
            `${sendVia}/api/v1/chat/conversations/${message.conversation.id}/messages`,
            {
              method: "POST",
              headers: {
                authorization: `Bearer ${message.conversation.sender.token}`,
                "content-type": "application/json",
              },
              body: JSON.stringify({
                body: "Are we still on for dinner tonight?",
                client_message_id: message.key,
              }),
            },
          ).catch(() => undefined);
          await response?.arrayBuffer();
          if (response && response.status >= 200 && response.status < 300) {
            ok += 1;
            acknowledged.add(message.key);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, sender));
    // Frames still on their way get up to 10 s.
    for (let waited = 0; waited < 10_000; waited += 100) {
      if ([...acknowledged].every((key) => frames.has(key))) {
        break;
      }
      await sleep(100);
    }
    await sleep(300);
    const stored = await client.query<{ duplicates: number }>(
      `SELECT count(*)::int - count(DISTINCT client_message_id)::int AS duplicates FROM chat_messages
        WHERE client_message_id = ANY($1::text[])`,
      [messages.map((message) => message.key)],
    );

    return {
      requests,
      ok,
      retries,
      duplicates:
        [...frames.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0) +
        (stored.rows[0]?.duplicates ?? 0),
      lost:
        [...acknowledged].filter((key) => !frames.has(key)).length + (messages.length - acknowledged.size),
      sockets: sockets.length,
    };
  } finally {
    for (const socket of sockets) {
      socket.terminate();
    }
  }
};
