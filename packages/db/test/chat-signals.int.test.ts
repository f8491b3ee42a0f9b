import { randomUUID } from "node:crypto";
import type { ChatSignal } from "@agora/domain/chat/chat.ports";
import { uuidV7Ids } from "@agora/domain/common/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openChatFanOut } from "../src/chat-fan-out";
import { type ChatSignalSink, decodeChatSignal } from "../src/repositories/chat/chat-signals";
import { createRepositories, createUnitOfWork } from "../src/repositories/index";
import { createTestDatabase, type TestDatabase } from "./databases";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds (or fails after `timeoutMs`). */
const eventually = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error("condition not met in time");
    }
    await sleep(20);
  }
};

/**
 * The two deliveries of chat signals (chat-signals.ts, SignalDelivery): pg_notify inside each
 * writing statement, or the payloads returned and handed to a sink once committed
 * (REALTIME_FANOUT=nats), with no NOTIFY at all.
 */
describe("chat signals: notified in the statement, or published after the commit", () => {
  let target: TestDatabase;
  const notified: ChatSignal[] = [];
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    target = await createTestDatabase();
    const fanOut = openChatFanOut(target.db);
    await fanOut.start({ signal: (signal) => notified.push(signal), resync: () => {} });
    close = () => fanOut.close();
  });
  afterAll(async () => {
    await close();
    await target?.dispose();
  });

  /** A sink that keeps what it was handed, decoded. */
  const capture = () => {
    const published: ChatSignal[] = [];
    const sink: ChatSignalSink = {
      publish: (payloads) => {
        for (const payload of payloads) {
          const signal = decodeChatSignal(payload);
          if (!signal) {
            throw new Error(`undecodable payload ${payload}`);
          }
          published.push(signal);
        }
      },
    };

    return { sink, published };
  };

  const pair = async () => {
    const [ada, bob] = [randomUUID(), randomUUID()];
    await target.db.sql.query(
      `INSERT INTO users (id, email, username, display_name, password_hash, role, status, created_at, updated_at)
       SELECT id, 'u-' || id || '@example.com', 'u' || replace(id::text, '-', ''), 'U', '', 'member', 'active', now(), now()
         FROM unnest($1::uuid[]) AS t(id)`,
      [[ada, bob]],
    );
    const conversationId = randomUUID();
    await target.db.sql.query(
      `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       VALUES ($1, least($2::uuid, $3::uuid), greatest($2::uuid, $3::uuid), now(), now())`,
      [conversationId, ada, bob],
    );

    return { ada, bob, conversationId };
  };
  const message = (conversationId: string, senderId: string) => ({
    id: uuidV7Ids.next(),
    conversationId,
    senderId,
    body: "hello",
    messageType: "text" as const,
    clientMessageId: null,
    createdAt: new Date(),
  });
  const event = (conversationId: string) => ({
    kind: "test.sent",
    aggregateType: "conversation",
    aggregateId: conversationId,
    payload: {},
  });
  const mentions = (signals: ChatSignal[], id: string) =>
    signals.filter((signal) => ("conversationId" in signal ? signal.conversationId : signal.userId) === id);

  it("notify: every writing statement's signal is heard on the channel, none goes to a sink", async () => {
    const { ada, bob, conversationId } = await pair();
    const repos = createRepositories(target.db.sql, target.db.prisma, uuidV7Ids);
    await repos.messages.send(message(conversationId, ada), event(conversationId));
    await repos.conversations.markRead(conversationId, bob, new Date());
    await repos.chatConnections.signalTyping(conversationId, ada, bob);
    await eventually(() => mentions(notified, conversationId).length === 3);
    expect(mentions(notified, conversationId).map((signal) => signal.type)).toEqual([
      "message",
      "read",
      "typing",
    ]);
  });

  it("publish: the statements notify nothing and hand the same signals to the sink when they return", async () => {
    const { ada, bob, conversationId } = await pair();
    const { sink, published } = capture();
    const repos = createRepositories(target.db.sql, target.db.prisma, uuidV7Ids, { chatSignals: sink });
    const sent = await repos.messages.send(message(conversationId, ada), event(conversationId));
    expect(sent.status).toBe("sent");
    expect(published).toEqual([{ type: "message", conversationId, seq: 1 }]);
    const marker = await repos.conversations.markRead(conversationId, bob, new Date());
    expect(published[1]).toEqual({
      type: "read",
      conversationId,
      userId: bob,
      lastReadSeq: 1,
      readAt: marker?.readAt,
    });
    await repos.chatConnections.signalTyping(conversationId, ada, bob);
    expect(published[2]).toEqual({ type: "typing", conversationId, userId: ada });
    const connection = randomUUID();
    await repos.chatConnections.add({
      id: connection,
      instanceId: randomUUID(),
      conversationId,
      userId: ada,
      at: new Date(),
    });
    await repos.chatConnections.remove(connection);
    expect(published.slice(3)).toEqual([
      { type: "presence", userId: ada },
      { type: "presence", userId: ada },
    ]);
    // A duplicate or refused write publishes nothing.
    await repos.messages.send(
      { ...message(conversationId, ada), id: uuidV7Ids.next() },
      event(conversationId),
    );
    expect(published).toHaveLength(6);
    // Nothing of all that was notified (the channel is PostgreSQL's, or PGlite's in-process one).
    await sleep(200);
    expect(mentions(notified, conversationId)).toEqual([]);
    expect(mentions(notified, ada)).toEqual([]);
  });

  it("publish in a unit of work: handed on once it committed, never when it rolled back", async () => {
    const { ada, conversationId } = await pair();
    const { sink, published } = capture();
    const uow = createUnitOfWork(target.db, uuidV7Ids, { chatSignals: sink });
    await expect(
      uow.run(async (tx) => {
        await tx.messages.send(message(conversationId, ada), event(conversationId));
        throw new Error("the attachment failed");
      }),
    ).rejects.toThrow("the attachment failed");
    expect(published).toEqual([]);

    let seenInside: number | undefined;
    await uow.run(async (tx) => {
      await tx.messages.send(message(conversationId, ada), event(conversationId));
      seenInside = published.length;
    });
    expect(seenInside).toBe(0);
    // The rolled-back send took no seq: the committed one is the first.
    expect(published).toEqual([{ type: "message", conversationId, seq: 1 }]);
  });
});
