import type { Actor } from "../common/actor";
import { NotFoundError, ValidationError } from "../common/app-error";
import { BlockedError } from "../community/blocks.policy";
import { attachMedia, prepareAttachment } from "../media/attach-media";
import { fileFilterReport, screenText } from "../moderation/screen-text";
import type { ChatDeps } from "./chat.deps";
import { ClientMessageConflictError } from "./chat.errors";
import { chatSendRefusal } from "./chat.policy";
import type { SendOutcome } from "./chat.ports";
import {
  MAX_MESSAGE_LENGTH,
  MAX_MESSAGE_MEDIA,
  type Message,
  type MessageType,
  type SendRefusal,
} from "./chat.types";
import { messageSent } from "./events/message-sent";
import { type MessageView, viewMessage } from "./message-views";

export type SendMessageInput = {
  conversationId: string;
  body: string;
  messageType: MessageType;
  clientMessageId?: string | undefined;
  /** Up to 5 of the sender's assets uploaded for `message`, in order. */
  mediaAssetIds?: readonly string[] | undefined;
};

/** The stored message; `replayed` when a retry found the message its client_message_id sent first. */
export type SentMessage = { message: MessageView; replayed: boolean };

const mediaField = (index: number) => `media_asset_ids.${index}`;

const sameMedia = (message: Message, ids: readonly string[]) =>
  message.media.length === ids.length &&
  message.media.every((asset, index) => asset.id === ids[index]?.toLowerCase());

/** The error of a send's refusal (chatSendRefusal): 404 for a stranger, 403 across a block. */
const refusalError = (refusal: SendRefusal): Error =>
  refusal === "not_found" ? new NotFoundError("Conversation") : new BlockedError();

/**
 * Sends a message as the caller. One statement (see MessageRepository.send) takes the next seq,
 * stores the message, moves the conversation's activity and the sender's read marker (sending
 * implies having read what came before), appends the `message.sent` event and signals the
 * realtime fan-out, which fires only on commit. Participants only (404 otherwise); a blocked pair
 * is 403. A client_message_id is unique per sender and conversation: a retry, also a concurrent
 * one, answers the message stored first and stores nothing; the same id with another body, type or
 * media is 409 idempotency_conflict.
 *
 * With media (docs/media.md, "Records that carry media"): participation and blocks are checked
 * first, then the assets as every record takes them (the sender's own, of purpose `message`,
 * confirmed in the store outside any transaction, not rejected: 422; still processing is fine, the
 * message shows them `processing` until they are ready), and the statement runs in a transaction
 * that attaches them (private) and links them to the message in order; when one was taken
 * meanwhile, nothing is stored (422).
 *
 * Content filters (docs/safety.md, "Filters"): `block` is 422 content_blocked; `hold` stores the
 * message held (a negative seq outside the sequence, nothing moved, no event, no signal) with its
 * filter report in the same transaction, answered 201 to its sender with `held`; a moderator's
 * release delivers it as new (MessageRepository.release); `flag` sends it and then reports it.
 */
export const sendMessage = async (
  deps: ChatDeps,
  actor: Actor,
  input: SendMessageInput,
): Promise<SentMessage> => {
  const { repos, clock, ids } = deps;
  const body = input.body.trim();
  if (body.length === 0 || body.length > MAX_MESSAGE_LENGTH) {
    throw new ValidationError([
      { path: "body", message: `must be 1 to ${MAX_MESSAGE_LENGTH} characters after trimming` },
    ]);
  }
  const mediaIds = input.mediaAssetIds ?? [];
  if (mediaIds.length > MAX_MESSAGE_MEDIA) {
    throw new ValidationError([{ path: "media_asset_ids", message: `at most ${MAX_MESSAGE_MEDIA} items` }]);
  }
  const conversationId = input.conversationId.toLowerCase();
  const clientMessageId = input.clientMessageId ?? null;

  /** The first message of this client_message_id, when this send is a retry of it. */
  const replayOf = async (): Promise<SentMessage | null> => {
    const first =
      clientMessageId === null
        ? null
        : await repos.messages.findByClientMessageId(conversationId, actor.userId, clientMessageId);
    if (!first) {
      return null;
    }
    if (first.body !== body || first.messageType !== input.messageType || !sameMedia(first, mediaIds)) {
      throw new ClientMessageConflictError();
    }

    return { message: await viewMessage(deps.objects, first, clock.now(), actor.userId), replayed: true };
  };

  if (mediaIds.length > 0) {
    // The send rule before the assets are taken (the statement applies it again, atomically).
    const conversation = await repos.conversations.findForParticipant(conversationId, actor.userId);
    const otherId = conversation?.participantIds.find((id) => id !== actor.userId) ?? actor.userId;
    const refusal = chatSendRefusal({
      participant: conversation !== null,
      blockedEitherWay:
        conversation !== null && (await repos.blocks.isBlockedEitherWay(actor.userId, otherId)),
    });
    if (refusal !== null) {
      throw refusalError(refusal);
    }
    // A retry of a stored message answers it: its assets are attached to it by now.
    const replay = await replayOf();
    if (replay) {
      return replay;
    }
    try {
      await prepareAttachment(deps, actor, mediaIds, "message", mediaField);
    } catch (error) {
      // A concurrent retry may have stored the message (and taken the assets) meanwhile.
      const raced = await replayOf();
      if (raced) {
        return raced;
      }
      throw error;
    }
  }

  // Screened after the replay checks: a retry of a stored message answers it as it was stored.
  // A held message is stored outside the sequence and delivered when a moderator releases it
  // (docs/safety.md, "Filters"); its filter report commits with it.
  const screening = await screenText(deps, "messages", { body }, {});
  const held = screening.action === "hold";
  const id = ids.next();
  const now = clock.now();
  const message = {
    id,
    conversationId,
    senderId: actor.userId,
    body,
    messageType: input.messageType,
    clientMessageId,
    createdAt: now,
    held,
  };
  const event = messageSent.event(conversationId, {
    conversation_id: conversationId,
    message_id: id,
    sender_id: actor.userId,
  });
  const report = {
    type: "message" as const,
    id,
    ownerId: actor.userId,
    snapshot: { body, conversation_id: conversationId },
    at: now,
  };
  const outcome: SendOutcome =
    mediaIds.length === 0 && !held
      ? await repos.messages.send(message, event)
      : await deps.uow.run(async (tx): Promise<SendOutcome> => {
          const sent = await tx.messages.send(message, event);
          if (sent.status !== "sent") {
            return sent;
          }
          if (held) {
            await fileFilterReport(tx, deps, screening, report);
          }
          if (mediaIds.length === 0) {
            return sent;
          }
          await attachMedia(tx, actor, mediaIds, "message", { at: now, public: false, field: mediaField });
          await tx.messages.setMedia(id, mediaIds);
          const assets = new Map((await tx.media.findByIds(mediaIds)).map((asset) => [asset.id, asset]));
          const media = mediaIds.flatMap((assetId) => assets.get(assetId.toLowerCase()) ?? []);

          return { status: "sent", message: { ...sent.message, media } };
        });
  switch (outcome.status) {
    case "sent":
      if (screening.action === "flag") {
        // Flagged: delivered as usual, then reported (the report commits after the message).
        await deps.uow.run((tx) => fileFilterReport(tx, deps, screening, report));
      }

      return {
        message: await viewMessage(deps.objects, outcome.message, clock.now(), actor.userId),
        replayed: false,
      };
    case "not_found":
    case "blocked":
      throw refusalError(outcome.status);
    case "duplicate": {
      const replay = await replayOf();
      if (!replay) {
        throw new Error("a client_message_id was refused as a duplicate but its message is missing");
      }

      return replay;
    }
    default: {
      const unknown: never = outcome;
      throw new Error(`unknown send outcome ${JSON.stringify(unknown)}`);
    }
  }
};
