import type { ChatConnectionRepository } from "@agora/domain/chat/chat.ports";
import type { SqlExecutor } from "../../sql";

/** Presence rows of realtime sockets: one autocommitted statement each, on the pool. */
export const createChatConnectionRepository = (db: SqlExecutor): ChatConnectionRepository => ({
  async add({ id, instanceId, conversationId, userId, at }) {
    await db.query(
      `INSERT INTO chat_connections (id, instance_id, conversation_id, user_id, connected_at, seen_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [id, instanceId, conversationId, userId, at],
      "chat_connections_add",
    );
  },

  async remove(id) {
    await db.query("DELETE FROM chat_connections WHERE id = $1", [id], "chat_connections_remove");
  },

  async touchInstance(instanceId, at, staleBefore) {
    await db.query(
      `WITH touched AS (UPDATE chat_connections SET seen_at = $2 WHERE instance_id = $1 RETURNING id)
       DELETE FROM chat_connections WHERE seen_at < $3 AND id NOT IN (SELECT id FROM touched)`,
      [instanceId, at, staleBefore],
      "chat_connections_touch",
    );
  },

  async removeInstance(instanceId) {
    await db.query("DELETE FROM chat_connections WHERE instance_id = $1", [instanceId]);
  },
});
