// Chat scenarios: the message send over HTTP beside the raw reference, and the realtime fan-out
// across two API processes (latency from the POST to the frame on the other process's socket,
// with 1,000 sockets open there, and the memory each open socket costs).
import { performance } from "node:perf_hooks";
import { sleep } from "@agora/testing/eventually";
import pg from "pg";
import { v7 } from "uuid";
import WebSocket from "ws";
import type { BenchContext, Scenario } from "./scenario.types.ts";
import { accessToken, insertUsers } from "./seed-community.ts";

type Member = { id: string; token: string };
type ChatWorld = { sender: Member; recipients: Member[]; conversationIds: string[] };

/** The chat members' tokens last two hours: a full bench run. */
const TOKEN_SECONDS = 2 * 3600;

/**
 * One sender and `count` recipients (each with a live session), and the sender's conversation with
 * each, written straight to the database.
 */
export const chatWorld = async (
  { databaseUrl, tokenSecret }: Pick<BenchContext, "databaseUrl" | "tokenSecret">,
  count: number,
): Promise<ChatWorld> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const users = Array.from({ length: count + 1 }, () => ({ id: v7(), session: v7() }));
    await insertUsers(client, {
      ids: users.map((user) => user.id),
      sessions: users.map((user) => user.session),
      prefix: "chat",
      displayName: "Chat Bench",
    });
    const [sender, ...recipients] = await Promise.all(
      users.map(async (user) => ({
        id: user.id,
        token: await accessToken(tokenSecret, user.id, user.session, "member", TOKEN_SECONDS),
      })),
    );
    if (!sender) {
      throw new Error("no sender");
    }
    const conversationIds = recipients.map(() => v7());
    await client.query(
      `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       SELECT id, least($2::uuid, r), greatest($2::uuid, r), now(), now()
         FROM unnest($1::uuid[], $3::uuid[]) AS t(id, r)`,
      [conversationIds, sender.id, recipients.map((recipient) => recipient.id)],
    );

    return { sender, recipients, conversationIds };
  } finally {
    await client.end();
  }
};

const messagesPath = (conversationId: string) => `/api/v1/chat/conversations/${conversationId}/messages`;

type Memory = { rss: number; heap: number };

/** Resident and JS heap memory of an API process, from its /metrics. */
const memoryOf = async (url: string): Promise<Memory> => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);

  return {
    rss: value("process_resident_memory_bytes"),
    heap: value("nodejs_heap_size_used_bytes"),
  };
};

/** The lowest of a few samples a moment apart (garbage not yet collected inflates single ones). */
const settledMemory = async (url: string): Promise<Memory> => {
  let best: Memory = { rss: Infinity, heap: Infinity };
  for (let sample = 0; sample < 6; sample += 1) {
    await sleep(500);
    const now = await memoryOf(url);
    best = {
      rss: Math.min(best.rss, now.rss),
      heap: Math.min(best.heap, now.heap),
    };
  }

  return best;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;

const openSocket = (url: string, conversationId: string, token: string, onFrame: (data: string) => void) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(
      `${url.replace("http", "ws")}/api/v1/chat/conversations/${conversationId}/realtime`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    ws.on("message", (data) => onFrame(String(data)));
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });

const SOCKETS = 1_000;
const MESSAGES = Number(process.env.BENCH_FANOUT_MESSAGES ?? 2_000);
const RATE = Number(process.env.BENCH_FANOUT_RATE ?? 100);
const IN_FLIGHT = 20;

const measureFanOut = async (context: BenchContext): Promise<string> => {
  const second = await context.startApi();
  const sockets: WebSocket[] = [];
  try {
    const world = await chatWorld(context, SOCKETS);
    const arrivals = new Map<string, (at: number) => void>();
    const onFrame = (text: string) => {
      const at = performance.now();
      const frame = JSON.parse(text) as { type: string; data?: { client_message_id?: string } };
      const key = frame.type === "message" ? frame.data?.client_message_id : undefined;
      if (key) {
        arrivals.get(key)?.(at);
      }
    };
    const openAll = async (handler: (text: string) => void) => {
      const opened: WebSocket[] = [];
      for (let start = 0; start < SOCKETS; start += 50) {
        const batch = world.recipients
          .slice(start, start + 50)
          .map((recipient, index) =>
            openSocket(second.url, world.conversationIds[start + index] ?? "", recipient.token, handler),
          );
        opened.push(...(await Promise.all(batch)));
      }

      return opened;
    };
    // Memory: what 1,000 sockets cost a fresh process (code paths, heap and allocator growth that
    // stays), then what the same 1,000 cost once warm (the steady cost of an open socket).
    const fresh = await settledMemory(second.url);
    const warmUp = await openAll(() => {});
    const coldOpen = await settledMemory(second.url);
    for (const socket of warmUp) {
      socket.close();
    }
    const before = await settledMemory(second.url);
    sockets.push(...(await openAll(onFrame)));
    const after = await settledMemory(second.url);

    // Send through the first process; time until the frame reaches the socket on the second.
    const latencies: number[] = [];
    const answered: number[] = [];
    const outstanding = new Set<string>();
    let failed = 0;
    let next = 0;
    const began = performance.now();
    const sender = async () => {
      while (next < MESSAGES) {
        const index = next;
        next += 1;
        // Paced: message i leaves at i / RATE seconds (a steady load, not a saturation test).
        const wait = began + (index * 1000) / RATE - performance.now();
        if (wait > 0) {
          await sleep(wait);
        }
        const conversationId = world.conversationIds[index % SOCKETS] ?? "";
        const key = `fanout-${index}`;
        const started = performance.now();
        outstanding.add(key);
        arrivals.set(key, (at) => {
          outstanding.delete(key);
          arrivals.delete(key);
          latencies.push(at - started);
        });
        const response = await fetch(`${context.apiUrl}${messagesPath(conversationId)}`, {
          method: "POST",
          headers: { authorization: `Bearer ${world.sender.token}`, "content-type": "application/json" },
          body: JSON.stringify({ body: "Are we still on for dinner tonight?", client_message_id: key }),
        });
        await response.arrayBuffer();
        answered.push(performance.now() - started);
        if (response.status !== 201) {
          failed += 1;
          outstanding.delete(key);
          arrivals.delete(key);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    // Frames still on their way get 10 s more; what has not arrived then is missing.
    for (let waited = 0; outstanding.size > 0 && waited < 10_000; waited += 50) {
      await sleep(50);
    }
    const missed = outstanding.size;
    latencies.sort((a, b) => a - b);
    answered.sort((a, b) => a - b);
    const kib = (bytes: number) => (bytes / SOCKETS / 1024).toFixed(1);
    const ms = (value: number) => value.toFixed(1);

    return (
      `POST on API 1 → frame on a socket of API 2 (${SOCKETS} sockets open on API 2, ${MESSAGES} messages at ` +
      `${RATE}/s, each to another conversation): p50 ${ms(percentile(latencies, 0.5))} ms, p99 ${ms(percentile(latencies, 0.99))} ms, ` +
      `max ${ms(latencies.at(-1) ?? Number.NaN)} ms, frames never received: ${missed}, sends refused: ${failed} ` +
      `(the POST's own 201: p50 ${ms(percentile(answered, 0.5))} ms, p99 ${ms(percentile(answered, 0.99))} ms). ` +
      `Memory per open socket on API 2 (resident, 1,000 open minus none): ${kib(after.rss - before.rss)} KiB once warm ` +
      `(JS heap ${kib(after.heap - before.heap)} KiB); the first 1,000 in a fresh process ${kib(coldOpen.rss - fresh.rss)} KiB ` +
      `(JS heap ${kib(coldOpen.heap - fresh.heap)} KiB), mostly heap and allocator growth the process keeps`
    );
  } finally {
    for (const socket of sockets) {
      socket.terminate();
    }
    await second.stop();
  }
};

const TYPING_FRAMES = Number(process.env.BENCH_TYPING_FRAMES ?? 2_000);

/**
 * Typing frames sent at RATE per second over `pairs` (sender socket, recipient socket), each pair in
 * turn (a pair's turns are SOCKETS / RATE seconds apart, beyond the 2 s throttle), timed from the
 * send to the typing frame on the recipient's socket. Answers the latencies and how many never came.
 */
const timeTyping = async (pairs: { from: WebSocket; arrived: { at?: (at: number) => void } }[]) => {
  const latencies: number[] = [];
  let missed = 0;
  const began = performance.now();
  for (let index = 0; index < TYPING_FRAMES; index += 1) {
    const wait = began + (index * 1000) / RATE - performance.now();
    if (wait > 0) {
      await sleep(wait);
    }
    const pair = pairs[index % pairs.length];
    if (!pair) {
      break;
    }
    if (pair.arrived.at) {
      missed += 1;
    }
    const started = performance.now();
    pair.arrived.at = (at) => {
      pair.arrived.at = undefined;
      latencies.push(at - started);
    };
    pair.from.send(JSON.stringify({ type: "typing" }));
  }
  for (let waited = 0; pairs.some((pair) => pair.arrived.at) && waited < 10_000; waited += 50) {
    await sleep(50);
  }
  missed += pairs.filter((pair) => pair.arrived.at).length;
  latencies.sort((a, b) => a - b);

  return { latencies, missed };
};

/**
 * Typing across processes: 1,000 sockets of one member (one per conversation) on API 1 and the
 * other participants' 1,000 on API 2; a typing frame on API 1 timed to its frame on API 2. Beside
 * it in the same run, the raw reference: the same sockets on raw `ws` in the reference process, the
 * same typing statement on a raw pool and one raw LISTEN relaying to the socket (reference.ts).
 */
const measureTyping = async (context: BenchContext): Promise<string> => {
  const second = await context.startApi();
  const sockets: WebSocket[] = [];
  try {
    const world = await chatWorld(context, SOCKETS);
    const pairsOn = async (
      open: (index: number, side: "from" | "to", onFrame: (text: string) => void) => Promise<WebSocket>,
    ) => {
      const pairs: { from: WebSocket; arrived: { at?: (at: number) => void } }[] = [];
      for (let start = 0; start < SOCKETS; start += 50) {
        const batch = Array.from({ length: Math.min(50, SOCKETS - start) }, async (_, offset) => {
          const index = start + offset;
          const arrived: { at?: (at: number) => void } = {};
          const onFrame = (text: string) => {
            const at = performance.now();
            if ((JSON.parse(text) as { type: string }).type === "typing") {
              arrived.at?.(at);
            }
          };
          const [from, to] = await Promise.all([open(index, "from", () => {}), open(index, "to", onFrame)]);
          sockets.push(from, to);

          return { from, arrived };
        });
        pairs.push(...(await Promise.all(batch)));
      }

      return pairs;
    };
    const agoraPairs = await pairsOn((index, side, onFrame) =>
      side === "from"
        ? openSocket(context.apiUrl, world.conversationIds[index] ?? "", world.sender.token, onFrame)
        : openSocket(
            second.url,
            world.conversationIds[index] ?? "",
            world.recipients[index]?.token ?? "",
            onFrame,
          ),
    );
    await sleep(1_000);
    const agora = await timeTyping(agoraPairs);
    for (const socket of sockets.splice(0)) {
      socket.terminate();
    }
    const referencePairs = await pairsOn(
      (index, side, onFrame) =>
        new Promise<WebSocket>((resolve, reject) => {
          const recipient = world.recipients[index]?.id ?? "";
          const [user, peer] = side === "from" ? [world.sender.id, recipient] : [recipient, world.sender.id];
          const ws = new WebSocket(
            `${context.referenceUrl.replace("http", "ws")}/ref/chat/typing?conversation=${world.conversationIds[index]}&user=${user}&peer=${peer}`,
          );
          ws.on("message", (data) => onFrame(String(data)));
          ws.once("open", () => resolve(ws));
          ws.once("error", reject);
        }),
    );
    await sleep(1_000);
    const reference = await timeTyping(referencePairs);
    const ms = (value: number) => value.toFixed(1);
    const figures = ({ latencies, missed }: { latencies: number[]; missed: number }) =>
      `p50 ${ms(percentile(latencies, 0.5))} ms, p99 ${ms(percentile(latencies, 0.99))} ms, ` +
      `max ${ms(latencies.at(-1) ?? Number.NaN)} ms, never received: ${missed}`;

    return (
      `typing frame on a socket of API 1 → typing frame on the peer's socket of API 2 (${SOCKETS} sockets open on ` +
      `each, ${TYPING_FRAMES} frames at ${RATE}/s, each to another conversation): ${figures(agora)}; ` +
      `raw reference (ws + the same typing statement + one LISTEN, one process): ${figures(reference)}; ` +
      `p99 ratio ${(percentile(agora.latencies, 0.99) / percentile(reference.latencies, 0.99)).toFixed(2)}`
    );
  } finally {
    for (const socket of sockets) {
      socket.terminate();
    }
    await second.stop();
  }
};

export const chatScenarios: Scenario[] = [
  {
    name: "POST /chat/…/messages",
    request: {
      path: "/api/v1/chat/conversations/:id/messages",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ body: "Are we still on for dinner tonight?" }),
    },
    connections: [50],
    prepare: async (context) => {
      // One sender spread over 200 conversations (one conversation would measure its row lock).
      const world = await chatWorld(context, 200);

      return {
        path: messagesPath(world.conversationIds[0] ?? ""),
        paths: world.conversationIds.map(messagesPath),
        headers: { "content-type": "application/json", authorization: `Bearer ${world.sender.token}` },
      };
    },
  },
  {
    name: "realtime fan-out across processes",
    request: { path: "/" },
    reference: false,
    connections: [],
    report: (context) => measureFanOut(context),
  },
  {
    name: "realtime typing fan-out across processes",
    request: { path: "/" },
    reference: false,
    connections: [],
    report: (context) => measureTyping(context),
  },
];
