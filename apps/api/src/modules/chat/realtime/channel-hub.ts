import { realtimeFrameTypes, type ServerFrame } from "@agora/contracts/realtime";
import type {
  ChatConnectionRepository,
  ChatSignal,
  ConversationRepository,
  MessageRepository,
} from "@agora/domain/chat/chat.ports";
import { CHAT_PAGE_SIZE, type Message, type ReadMarker } from "@agora/domain/chat/chat.types";
import { type MessageView, readAlike } from "@agora/domain/chat/message-views";
import type { ChannelGrant } from "@agora/domain/chat/open-channel";
import { toMessageDto, toPresenceDto, toReadMarkerDto } from "../chat.presenter";

/** What the hub needs of a socket: a way to send text, and where it stands. */
export type ChannelClient = {
  readonly id: string;
  readonly grant: ChannelGrant;
  /** The seq of the last message this socket was sent (or skipped, being before its start). */
  cursor: number;
  /** The newest read marker this socket was sent, per participant. */
  readonly reads: Map<string, { seq: number; at: number }>;
  /** The peer's presence this socket was last sent (undefined: none yet). */
  peerOnline?: boolean;
  send(text: string): void;
};

type Room = {
  conversationId: string;
  clients: Set<ChannelClient>;
  pumping: boolean;
  again: boolean;
  /** Seqs of messages whose media finished processing, to send again to the sockets that had them. */
  media: Set<number>;
  /**
   * Seqs of messages sent to a socket of the room while one of their assets was still processing,
   * until a media change sent them settled: a resync reads them again, their signal may be lost.
   */
  unsettled: Set<number>;
};

export type ChannelHubDeps = {
  messages: Pick<MessageRepository, "listPage">;
  /**
   * The message as `viewerId` reads it (its media's state and read URLs). Both participants read it
   * alike unless one of its assets was rejected (readAlike): then each socket gets its own frame.
   */
  viewMessage(message: Message, viewerId: string): Promise<MessageView>;
  conversations: Pick<ConversationRepository, "findReadMarkers">;
  connections: Pick<ChatConnectionRepository, "findPresence">;
  /** Rows seen within this are live (a user with one is online). */
  staleAfterMs: number;
  /** A failed load (it is retried shortly). */
  onError(error: unknown): void;
};

const frame = (value: ServerFrame): string => JSON.stringify(value);

/**
 * The sockets of this process, by conversation, and what each was sent. A message signal (from
 * any process) makes the conversation's room load the messages after its lowest cursor, in seq
 * order, and send each socket those after its own cursor: order and "each message once per
 * socket" follow from the cursors, whatever order signals arrive in, and a lost signal is made up
 * by the next one (or by `resync`). Seqs commit in order (the send takes the conversation's row
 * lock), so the messages after a cursor are always a gapless run. A media signal (an image of a
 * message was processed) makes the room read that message again, in the same pump, and send it as
 * a `message_media` frame to the sockets that had it.
 */
export const createChannelHub = ({
  messages,
  viewMessage,
  conversations,
  connections,
  staleAfterMs,
  onError,
}: ChannelHubDeps) => {
  const rooms = new Map<string, Room>();
  /** The sockets by their peer: who is sent a user's presence. */
  const byPeer = new Map<string, Set<ChannelClient>>();
  /** Presence loads in flight, by user: a signal meanwhile loads again once it ends. */
  const presenceLoads = new Map<string, { again: boolean }>();

  /**
   * Reads `userId`'s presence and who of this process's sockets on their conversations may see it
   * (a block either way hides it), and sends it to each such socket whose last frame said otherwise.
   * Signals only say "may have changed": the read after the last signal tells the truth, so order
   * and duplicates of signals do not matter.
   */
  const loadPresence = async (userId: string): Promise<void> => {
    const running = presenceLoads.get(userId);
    if (running) {
      running.again = true;

      return;
    }
    const load = { again: true };
    presenceLoads.set(userId, load);
    try {
      while (load.again) {
        load.again = false;
        const watchers = byPeer.get(userId);
        if (!watchers || watchers.size === 0) {
          break;
        }
        const viewers = [...new Set([...watchers].map((client) => client.grant.userId))];
        const found = await connections.findPresence(userId, viewers, staleAfterMs);
        const visible = new Set(found.viewerIds);
        let text: string | undefined;
        for (const client of byPeer.get(userId) ?? []) {
          if (visible.has(client.grant.userId) && client.peerOnline !== found.presence.online) {
            client.peerOnline = found.presence.online;
            text ??= frame({ type: realtimeFrameTypes.presence, data: toPresenceDto(found.presence) });
            client.send(text);
          }
        }
      }
    } catch (error) {
      onError(error);
      setTimeout(() => void loadPresence(userId), 1_000).unref();
    } finally {
      presenceLoads.delete(userId);
    }
  };

  const sendTyping = (room: Room, userId: string) => {
    let text: string | undefined;
    for (const client of room.clients) {
      if (client.grant.userId !== userId) {
        text ??= frame({
          type: realtimeFrameTypes.typing,
          data: { conversation_id: room.conversationId, user_id: userId },
        });
        client.send(text);
      }
    }
  };

  const hasProcessing = (message: Message) =>
    message.media.some((asset) => asset.processing === "processing");

  const lowestCursor = (room: Room) => {
    let lowest = Number.POSITIVE_INFINITY;
    for (const client of room.clients) {
      lowest = Math.min(lowest, client.cursor);
    }

    return lowest;
  };

  /**
   * Sends `message` as a frame of `type` to each socket of `clients` (moving its cursor to the
   * message, for a `message` frame): one text for all when both participants read it alike, else
   * one per reader. Every text is made before any is sent, so a failed read sends none.
   */
  const sendMessage = async (
    type: typeof realtimeFrameTypes.message | typeof realtimeFrameTypes.messageMedia,
    message: Message,
    clients: readonly ChannelClient[],
  ) => {
    const readerOf = (client: ChannelClient) => (readAlike(message) ? "" : client.grant.userId);
    const texts = new Map<string, string>();
    for (const client of clients) {
      if (!texts.has(readerOf(client))) {
        const view = await viewMessage(message, client.grant.userId);
        texts.set(readerOf(client), frame({ type, data: toMessageDto(view) }));
      }
    }
    for (const client of clients) {
      if (type === realtimeFrameTypes.message) {
        client.cursor = Math.max(client.cursor, message.seq);
      }
      client.send(texts.get(readerOf(client)) ?? "");
    }
  };

  /**
   * The messages whose media finished processing: each is read again (after the signal, so as
   * committed) and sent as a `message_media` frame to the sockets that were sent it already; a
   * socket that was not gets it, as it is now, from the message loop. A seq stays in `media` until
   * its frames are sent: a failed read leaves it to the pump's retry. A resync puts the room's
   * `unsettled` seqs here too, for the signals it may have missed.
   */
  const sendMediaChanges = async (room: Room) => {
    for (const seq of [...room.media].sort((a, b) => a - b)) {
      const had = [...room.clients].filter((client) => client.cursor >= seq);
      const [message] =
        had.length === 0
          ? []
          : (await messages.listPage(room.conversationId, { after: seq - 1 }, 1)).messages;
      const found = message?.seq === seq ? message : undefined;
      // Every asset still processing (a resync's recheck of a message whose signal was not lost):
      // nothing changed since it was sent.
      if (found?.media.some((asset) => asset.processing !== "processing")) {
        await sendMessage(realtimeFrameTypes.messageMedia, found, had);
      }
      if (found && hasProcessing(found)) {
        room.unsettled.add(seq);
      } else {
        room.unsettled.delete(seq);
      }
      room.media.delete(seq);
    }
  };

  const pump = async (room: Room): Promise<void> => {
    if (room.pumping) {
      room.again = true;

      return;
    }
    room.pumping = true;
    try {
      do {
        room.again = false;
        let from = lowestCursor(room);
        while (room.clients.size > 0) {
          const after = from;
          const page = await messages.listPage(room.conversationId, { after }, CHAT_PAGE_SIZE);
          for (const message of page.messages) {
            // A socket that joined while the page loaded, with its cursor before it, is not sent the
            // page (it would skip the messages up to `after`): its join pumps the room again.
            const behind = [...room.clients].filter(
              (client) => client.cursor >= after && client.cursor < message.seq,
            );
            if (behind.length > 0) {
              await sendMessage(realtimeFrameTypes.message, message, behind);
              if (hasProcessing(message)) {
                room.unsettled.add(message.seq);
              }
            }
          }
          const last = page.messages.at(-1);
          if (!page.hasMore || !last) {
            break;
          }
          from = last.seq;
        }
        await sendMediaChanges(room);
      } while (room.again && room.clients.size > 0);
    } catch (error) {
      onError(error);
      setTimeout(() => void pump(room), 1_000).unref();
    } finally {
      room.pumping = false;
    }
  };

  const sendRead = (room: Room, marker: ReadMarker) => {
    if (marker.readAt === null) {
      return;
    }
    const at = marker.readAt.getTime();
    let text: string | undefined;
    for (const client of room.clients) {
      const seen = client.reads.get(marker.userId);
      if (seen && seen.seq >= marker.lastReadSeq && seen.at >= at) {
        continue;
      }
      client.reads.set(marker.userId, { seq: marker.lastReadSeq, at });
      text ??= frame({ type: realtimeFrameTypes.read, data: toReadMarkerDto(marker) });
      client.send(text);
    }
  };

  return {
    /** Joins the socket to its conversation's room and sends what it should have from its cursor. */
    add(client: ChannelClient) {
      let room = rooms.get(client.grant.conversationId);
      if (!room) {
        room = {
          conversationId: client.grant.conversationId,
          clients: new Set(),
          pumping: false,
          again: false,
          media: new Set(),
          unsettled: new Set(),
        };
        rooms.set(room.conversationId, room);
      }
      room.clients.add(client);
      void pump(room);
      let watchers = byPeer.get(client.grant.peerId);
      if (!watchers) {
        watchers = new Set();
        byPeer.set(client.grant.peerId, watchers);
      }
      watchers.add(client);
      // The peer's presence as it is now (this socket has none yet).
      void loadPresence(client.grant.peerId);
    },

    remove(client: ChannelClient) {
      const room = rooms.get(client.grant.conversationId);
      if (room?.clients.delete(client) && room.clients.size === 0) {
        rooms.delete(room.conversationId);
      }
      const watchers = byPeer.get(client.grant.peerId);
      if (watchers?.delete(client) && watchers.size === 0) {
        byPeer.delete(client.grant.peerId);
      }
    },

    /** A committed change heard through the fan-out. */
    signal(signal: ChatSignal) {
      if (signal.type === "presence") {
        if (byPeer.has(signal.userId)) {
          void loadPresence(signal.userId);
        }

        return;
      }
      const room = rooms.get(signal.conversationId);
      if (!room) {
        return;
      }
      if (signal.type === "message") {
        if (signal.seq > lowestCursor(room)) {
          void pump(room);
        }

        return;
      }
      if (signal.type === "media") {
        room.media.add(signal.seq);
        void pump(room);

        return;
      }
      if (signal.type === "typing") {
        sendTyping(room, signal.userId);

        return;
      }
      sendRead(room, signal);
    },

    /**
     * Signals may have been lost: every room reloads messages after its cursors and those it sent
     * with media still processing (sent again when that changed), read markers, and the presence
     * of every peer.
     */
    async resync() {
      for (const room of rooms.values()) {
        for (const seq of room.unsettled) {
          room.media.add(seq);
        }
        void pump(room);
      }

      const ids = [...rooms.keys()];
      for (let start = 0; start < ids.length; start += 500) {
        for (const marker of await conversations.findReadMarkers(ids.slice(start, start + 500))) {
          const room = rooms.get(marker.conversationId);
          if (room) {
            sendRead(room, marker);
          }
        }
      }
      // One at a time: a resync must not queue a read per peer on the pool at once.
      for (const userId of [...byPeer.keys()]) {
        await loadPresence(userId);
      }
    },

    *clients(): IterableIterator<ChannelClient> {
      for (const room of rooms.values()) {
        yield* room.clients;
      }
    },
  };
};
