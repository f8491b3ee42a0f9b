import { randomUUID } from "node:crypto";
import { chatParticipant, chatSendRefusal } from "@agora/domain/chat/chat.policy";
import type { ChatSignal } from "@agora/domain/chat/chat.ports";
import { messageSent } from "@agora/domain/chat/events/message-sent";
import { uuidV7Ids } from "@agora/domain/common/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatConnectionRepository } from "../src/repositories/chat/chat-connections.repository";
import { type ChatSignalSink, decodeChatSignal } from "../src/repositories/chat/chat-signals";
import {
  createConversationRepository,
  participantSql,
} from "../src/repositories/chat/conversations.repository";
import { createMessageRepository } from "../src/repositories/chat/messages.repository";
import { createTestDatabase, type TestDatabase } from "./databases";

const booleans = [true, false] as const;

/** Every combination of the facts chat_send_refusal decides from (2 × 2 = 4). */
const refusalCombinations = booleans.flatMap((participant) =>
  booleans.map((blockedEitherWay) => ({ participant, blockedEitherWay })),
);

/** Who blocks whom in a conversation's pair. */
const blockKinds = ["none", "a_blocks_b", "b_blocks_a", "both"] as const;

/**
 * Chat participation and blocks are SQL functions (chat_participant, chat_send_refusal, migration
 * 20261210000100_chat_participation_rule) with domain mirrors of the same names: they agree on
 * every combination of the facts, and the statements (the send, the typing signal, finding a
 * conversation for a user, marking it read) answer exactly what the domain decides for
 * conversations with every kind of block, sent to by each participant and by a stranger.
 */
describe("chat participation and blocks: one rule in SQL and in the domain", () => {
  let target: TestDatabase;
  const published: ChatSignal[] = [];
  const sink: ChatSignalSink = {
    publish: (payloads) => {
      for (const payload of payloads) {
        const signal = decodeChatSignal(payload);
        if (signal) {
          published.push(signal);
        }
      }
    },
  };

  /** A conversation per kind of block in its pair, and a stranger to all of them. */
  const stranger = randomUUID();
  const conversations = blockKinds.map((block) => {
    const [a, b] = [randomUUID(), randomUUID()].sort() as [string, string];

    return { id: randomUUID(), participantIds: [a, b] as [string, string], block };
  });
  type Seeded = (typeof conversations)[number];
  const blocked = (conversation: Seeded) => conversation.block !== "none";

  beforeAll(async () => {
    target = await createTestDatabase();
    const sql = target.db.sql;
    const users = [stranger, ...conversations.flatMap((conversation) => conversation.participantIds)];
    await sql.query(
      `INSERT INTO users (id, email, username, password_hash, role, status)
       SELECT id, id || '@example.test', 'c' || replace(id::text, '-', ''), 'x', 'member', 'active'
         FROM unnest($1::uuid[]) AS t(id)`,
      [users],
    );
    await sql.query(
      `INSERT INTO conversations (id, user_a_id, user_b_id, created_at, updated_at)
       SELECT id, a, b, now(), now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t(id, a, b)`,
      [
        conversations.map((conversation) => conversation.id),
        conversations.map((conversation) => conversation.participantIds[0]),
        conversations.map((conversation) => conversation.participantIds[1]),
      ],
    );
    const blocks = conversations.flatMap(({ participantIds: [a, b], block }) => [
      ...(block === "a_blocks_b" || block === "both" ? [[a, b]] : []),
      ...(block === "b_blocks_a" || block === "both" ? [[b, a]] : []),
    ]);
    // The stranger is blocked by a participant of the first (unblocked) pair: not a fact of its sends.
    blocks.push([conversations[0]?.participantIds[0] ?? "", stranger]);
    await sql.query(
      `INSERT INTO user_blocks (blocker_id, blocked_id, created_at)
       SELECT blocker, blocked, now() FROM unnest($1::uuid[], $2::uuid[]) AS t(blocker, blocked)`,
      [blocks.map(([blocker]) => blocker), blocks.map(([, blockedId]) => blockedId)],
    );
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it("has chat_participant and chatParticipant agree for each side of the pair and a stranger (NULL, as in WHERE, is not one)", async () => {
    const [a, b] = conversations[0]?.participantIds ?? ["", ""];
    const users = [a, b, stranger];
    const { rows } = await target.db.sql.query<{ participant: boolean }>(
      `SELECT chat_participant(u, $2, $3) IS TRUE AS participant
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(u, n) ORDER BY n`,
      [[...users, null], a, b],
    );
    expect(rows.map((row) => row.participant)).toEqual([
      ...users.map((user) => chatParticipant(user, { participantIds: [a, b] })),
      false,
    ]);
    expect(users.map((user) => chatParticipant(user, { participantIds: [a, b] }))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("has chat_send_refusal and chatSendRefusal agree on every combination (an unknown fact refuses)", async () => {
    const { rows } = await target.db.sql.query<{ refusal: string | null }>(
      `SELECT chat_send_refusal(participant, blocked) AS refusal
         FROM unnest($1::boolean[], $2::boolean[]) WITH ORDINALITY AS t(participant, blocked, n) ORDER BY n`,
      [refusalCombinations.map((c) => c.participant), refusalCombinations.map((c) => c.blockedEitherWay)],
    );
    expect(refusalCombinations.map((c, index) => [c, rows[index]?.refusal])).toEqual(
      refusalCombinations.map((c) => [c, chatSendRefusal(c)]),
    );
    expect(refusalCombinations.map(chatSendRefusal)).toEqual(["blocked", null, "not_found", "not_found"]);
    const { rows: unknown } = await target.db.sql.query<Record<string, string | null>>(
      `SELECT chat_send_refusal(NULL, false) AS participant_unknown,
              chat_send_refusal(true, NULL) AS blocks_unknown,
              chat_send_refusal(false, NULL) AS stranger_blocks_unknown`,
    );
    expect(unknown).toEqual([
      { participant_unknown: "not_found", blocks_unknown: "blocked", stranger_blocks_unknown: "not_found" },
    ]);
  });

  it("sends, refuses as not found or as blocked, exactly as the domain decides, and stores only what it sends", async () => {
    const messages = createMessageRepository(target.db.sql, uuidV7Ids);
    const send = (conversationId: string, senderId: string) => {
      const id = uuidV7Ids.next();

      return messages.send(
        {
          id,
          conversationId,
          senderId,
          body: "hello",
          messageType: "text",
          clientMessageId: null,
          createdAt: new Date(),
        },
        messageSent.event(conversationId, {
          conversation_id: conversationId,
          message_id: id,
          sender_id: senderId,
        }),
      );
    };
    const cases = [
      ...conversations.flatMap((conversation) =>
        [...conversation.participantIds, stranger].map((sender) => ({ conversation, sender })),
      ),
    ];
    expect(cases).toHaveLength(12);
    for (const { conversation, sender } of cases) {
      const facts = {
        participant: chatParticipant(sender, conversation),
        blockedEitherWay: blocked(conversation),
      };
      const outcome = await send(conversation.id, sender);
      expect({ block: conversation.block, facts, status: outcome.status }).toEqual({
        block: conversation.block,
        facts,
        status: chatSendRefusal(facts) ?? "sent",
      });
    }
    // No such conversation: a stranger's.
    expect((await send(randomUUID(), stranger)).status).toBe(
      chatSendRefusal({ participant: false, blockedEitherWay: false }),
    );
    // Stored: the two participants' messages of the unblocked pair, nothing else.
    const { rows } = await target.db.sql.query<{
      conversation_id: string;
      messages: number;
      last_seq: number;
    }>(
      `SELECT c.id AS conversation_id, c.last_seq, (SELECT count(*)::int FROM chat_messages m WHERE m.conversation_id = c.id) AS messages
         FROM conversations c WHERE c.id = ANY($1::uuid[]) ORDER BY c.id`,
      [conversations.map((conversation) => conversation.id)],
    );
    expect(rows).toEqual(
      [...conversations]
        .sort((x, y) => (x.id < y.id ? -1 : 1))
        .map((conversation) => ({
          conversation_id: conversation.id,
          messages: blocked(conversation) ? 0 : 2,
          last_seq: blocked(conversation) ? 0 : 2,
        })),
    );
  });

  it("passes a participant's typing on only when the send rule would let it send", async () => {
    const connections = createChatConnectionRepository(target.db.sql, sink);
    for (const conversation of conversations) {
      for (const [userId, peerId] of [
        conversation.participantIds,
        [...conversation.participantIds].reverse() as [string, string],
      ]) {
        published.length = 0;
        await connections.signalTyping(conversation.id, userId, peerId);
        expect({ block: conversation.block, typing: published }).toEqual({
          block: conversation.block,
          typing:
            chatSendRefusal({ participant: true, blockedEitherWay: blocked(conversation) }) === null
              ? [{ type: "typing", conversationId: conversation.id, userId }]
              : [],
        });
      }
    }
  });

  it("finds a conversation (reading, the realtime channel) and marks it read for its participants only, blocks aside", async () => {
    const repository = createConversationRepository(target.db.sql);
    for (const conversation of conversations) {
      for (const user of [...conversation.participantIds, stranger]) {
        const participant = chatParticipant(user, conversation);
        const found = await repository.findForParticipant(conversation.id, user);
        const marked = await repository.markRead(conversation.id, user, new Date());
        expect({
          block: conversation.block,
          participant,
          found: found?.id,
          marked: marked?.conversationId,
        }).toEqual({
          block: conversation.block,
          participant,
          found: participant ? conversation.id : undefined,
          marked: participant ? conversation.id : undefined,
        });
      }
    }
  });

  it("inlines chat_participant: a conversation for a user plans as the condition written out", async () => {
    const explain = async (condition: string) => {
      const { rows } = await target.db.sql.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (COSTS OFF) SELECT c.id FROM conversations c WHERE c.id = '${conversations[0]?.id}' AND ${condition}`,
      );

      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    };
    const user = `'${stranger}'::uuid`;
    const plan = await explain(participantSql(user));
    expect(participantSql(user)).toContain("chat_participant(");
    expect(plan).toBe(await explain(`${user} IN (c.user_a_id, c.user_b_id)`));
    expect(plan).not.toContain("chat_participant");
  });
});
