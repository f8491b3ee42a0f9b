-- Chat: one-to-one conversations, their messages with a per-conversation sequence, the two read
-- markers, and the realtime sockets open right now (for "push only when no socket is open").

-- One row per unordered pair of users: user_a_id is the smaller id, so the unique index on the
-- ordered pair makes concurrent creates from both sides meet on one row.
CREATE TABLE "conversations" (
  "id" UUID NOT NULL,
  "user_a_id" UUID NOT NULL,
  "user_b_id" UUID NOT NULL,
  -- The seq of the newest message (0 before the first); the send statement bumps it under the row lock.
  "last_seq" INTEGER NOT NULL DEFAULT 0,
  -- Each participant's read marker: every message with a higher seq is unread by them.
  "user_a_read_seq" INTEGER NOT NULL DEFAULT 0,
  "user_a_read_at" TIMESTAMPTZ(6),
  "user_b_read_seq" INTEGER NOT NULL DEFAULT 0,
  "user_b_read_at" TIMESTAMPTZ(6),
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  -- Last activity: creation, then each message (read markers do not count).
  "updated_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "conversations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "conversations_user_a_id_fkey" FOREIGN KEY ("user_a_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "conversations_user_b_id_fkey" FOREIGN KEY ("user_b_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "conversations_pair_order_check" CHECK ("user_a_id" < "user_b_id"),
  CONSTRAINT "conversations_read_seq_check" CHECK (
    "user_a_read_seq" BETWEEN 0 AND "last_seq" AND "user_b_read_seq" BETWEEN 0 AND "last_seq"
  )
);
CREATE UNIQUE INDEX "conversations_user_a_id_user_b_id_key" ON "conversations" ("user_a_id", "user_b_id");
-- A user's most recently active conversations, one index per side of the pair.
CREATE INDEX "conversations_user_a_id_updated_at_id_idx" ON "conversations" ("user_a_id", "updated_at" DESC, "id" DESC);
CREATE INDEX "conversations_user_b_id_updated_at_id_idx" ON "conversations" ("user_b_id", "updated_at" DESC, "id" DESC);

CREATE TABLE "chat_messages" (
  "id" UUID NOT NULL,
  "conversation_id" UUID NOT NULL,
  -- 1, 2, 3 … per conversation, without gaps: assigned from conversations.last_seq under its row lock.
  "seq" INTEGER NOT NULL,
  "sender_id" UUID NOT NULL,
  "body" TEXT NOT NULL,
  "message_type" TEXT NOT NULL DEFAULT 'text',
  "client_message_id" TEXT,
  "created_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "chat_messages_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "chat_messages_sender_id_fkey" FOREIGN KEY ("sender_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "chat_messages_seq_check" CHECK ("seq" >= 1),
  CONSTRAINT "chat_messages_body_check" CHECK (char_length("body") BETWEEN 1 AND 4000),
  CONSTRAINT "chat_messages_message_type_check" CHECK ("message_type" IN ('text')),
  CONSTRAINT "chat_messages_client_message_id_check" CHECK (char_length("client_message_id") BETWEEN 1 AND 100)
);
-- Pages and catch-up read ranges of seq; also makes a seq impossible to hand out twice.
CREATE UNIQUE INDEX "chat_messages_conversation_id_seq_key" ON "chat_messages" ("conversation_id", "seq");
-- A client retry (same sender, conversation and client_message_id) cannot store a second message;
-- messages without a client_message_id (NULL) never collide.
CREATE UNIQUE INDEX "chat_messages_conversation_id_sender_id_client_message_id_key"
  ON "chat_messages" ("conversation_id", "sender_id", "client_message_id");

-- Realtime sockets open now, one row per socket, kept by the API process holding it (instance_id):
-- inserted on open, deleted on close, seen_at refreshed every 25 s. Rows of a process that died
-- go stale and stop counting. No foreign keys: rows are short-lived and written on every connect.
CREATE TABLE "chat_connections" (
  "id" UUID NOT NULL,
  "instance_id" UUID NOT NULL,
  "conversation_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "connected_at" TIMESTAMPTZ(6) NOT NULL,
  "seen_at" TIMESTAMPTZ(6) NOT NULL,
  CONSTRAINT "chat_connections_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "chat_connections_conversation_id_user_id_idx" ON "chat_connections" ("conversation_id", "user_id");
CREATE INDEX "chat_connections_instance_id_idx" ON "chat_connections" ("instance_id");
