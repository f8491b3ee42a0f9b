// A chat message takes an image right after its upload: every read shows it `processing` until the
// outbox processed it, and then the conversation's open sockets get a `message_media` frame with
// the message as each participant reads it now (ready; or rejected: the sender sees why, the other
// participant no longer sees it). Real ws clients on a listening server, uploads to a local S3.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { MessageDto } from "@agora/contracts/chat";
import type { NotificationDto } from "@agora/contracts/notifications";
import { realtimeFrameTypes } from "@agora/contracts/realtime";
import { onPostgres } from "@agora/db/test/databases";
import { sleep } from "@agora/testing/eventually";
import { builtEntry, startProcess } from "@agora/testing/processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOnFanOuts, natsMode, natsReachable, natsUrl } from "../../../test/fan-outs";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { conversationPair, startServer, type TestServer, type TestSocket } from "../../../test/realtime";
import {
  type LocalS3,
  processingMediaItem as processingEntry,
  readyMediaItem as readyEntry,
  startLocalS3,
  TINY_PNG,
  uploadMedia,
} from "../../../test/s3";

type Body<T> = { data: T; error: { code: string } | null };

/** The messages of the frames of `type` a socket got so far. */
const framed = (socket: TestSocket, type: string) =>
  socket.frames.filter((frame) => frame.type === type).map((frame) => frame.data as unknown as MessageDto);

/** Waits for `count` frames of `type` on `socket`; answers their messages. */
const waitForFramed = async (socket: TestSocket, type: string, count = 1) =>
  (await socket.waitFor(type, count)).map((frame) => frame.data as unknown as MessageDto);

/** The chat calls of the tests below, on harness `h`. */
const chatOn = (h: Harness) => ({
  pair: () => conversationPair(h),
  /** Uploaded (PUT to the store done) and nothing else: not confirmed, not processed. */
  async freshUpload(who: SignedIn, options: { mimeType?: string } = {}) {
    const uploaded = await uploadMedia(h, who.accessToken, {
      purpose: "message",
      bytes: TINY_PNG,
      ...options,
    });
    expect(uploaded.storeStatus).toBe(200);
    const { rows } = await h.db.sql.query<{ processing: string | null }>(
      "SELECT processing FROM media_assets WHERE id = $1",
      [uploaded.id],
    );
    // Not confirmed yet: no processing queued (the send confirms it).
    expect(rows).toEqual([{ processing: null }]);

    return uploaded.id;
  },
  send: (who: SignedIn, conversationId: string, body: Record<string, unknown>) =>
    h.post<Body<MessageDto>>(`/api/v1/chat/conversations/${conversationId}/messages`, body, {
      token: who.accessToken,
    }),
  async page(who: SignedIn, conversationId: string) {
    const res = await h.get<Body<MessageDto[]>>(`/api/v1/chat/conversations/${conversationId}/messages`, {
      token: who.accessToken,
    });
    expect(res.status).toBe(200);

    return res.body.data;
  },
});

describeOnFanOuts(
  "a message's media in realtime frames (real ws clients on a listening server, local S3; $name fan-out)",
  ({ setup }) => {
    let s3: LocalS3;
    let h: Harness;
    let api: TestServer;
    let chat: ReturnType<typeof chatOn>;

    beforeAll(async () => {
      s3 = await startLocalS3();
      h = await createHarness({ seed: false, config: { s3: s3.config, ...setup().config } });
      api = await startServer(h);
      chat = chatOn(h);
    });
    afterAll(async () => {
      await api?.close();
      await h?.close();
      await s3?.close();
    });

    it("sends an image at once, processing without URLs, then a message_media frame to both sockets when it is ready", async () => {
      const { ada, bob, conversationId } = await chat.pair();
      const adaSocket = await api.connect(conversationId, ada.accessToken);
      const bobSocket = await api.connect(conversationId, bob.accessToken);
      const id = await chat.freshUpload(ada);

      const sent = await chat.send(ada, conversationId, { body: "the view", media_asset_ids: [id] });
      expect(sent.status).toBe(201);
      const message = sent.body.data;
      expect(message.media).toEqual([processingEntry(id)]);

      for (const socket of [adaSocket, bobSocket]) {
        const [pushed] = await waitForFramed(socket, realtimeFrameTypes.message);
        expect(pushed).toMatchObject({ id: message.id, seq: message.seq, body: "the view" });
        expect(pushed?.media).toEqual([processingEntry(id)]);
      }
      // Nothing is ready yet: no message_media frame before processing.
      await sleep(100);
      expect(framed(adaSocket, realtimeFrameTypes.messageMedia)).toEqual([]);
      expect(framed(bobSocket, realtimeFrameTypes.messageMedia)).toEqual([]);

      await h.runOutboxOnce();

      for (const socket of [adaSocket, bobSocket]) {
        const [changed] = await waitForFramed(socket, realtimeFrameTypes.messageMedia);
        // The whole message again, as it reads now.
        expect(changed).toMatchObject({ id: message.id, seq: message.seq, body: "the view" });
        expect(changed?.media).toEqual([readyEntry(id)]);
        // Its URL serves the processed copy.
        expect((await fetch(changed?.media[0]?.url ?? "")).status).toBe(200);
      }
      await sleep(100);
      for (const socket of [adaSocket, bobSocket]) {
        // Once each: the message by the message loop, its change by the media signal.
        expect(framed(socket, realtimeFrameTypes.message).map((m) => m.id)).toEqual([message.id]);
        expect(framed(socket, realtimeFrameTypes.messageMedia).map((m) => m.id)).toEqual([message.id]);
      }
      for (const who of [ada, bob]) {
        const [read] = await chat.page(who, conversationId);
        expect(read?.id).toBe(message.id);
        expect(read?.media).toEqual([readyEntry(id)]);
      }
      adaSocket.close();
      bobSocket.close();
    });

    it("shows bytes rejected after the send to the sender as rejected and to the other participant not at all, frames included; one notice", async () => {
      const { ada, bob, conversationId } = await chat.pair();
      const adaSocket = await api.connect(conversationId, ada.accessToken);
      const bobSocket = await api.connect(conversationId, bob.accessToken);
      // PNG bytes declared as a JPEG: the store takes them, processing rejects them.
      const id = await chat.freshUpload(ada, { mimeType: "image/jpeg" });

      const sent = await chat.send(ada, conversationId, { body: "a jpeg, honest", media_asset_ids: [id] });
      expect(sent.status).toBe(201);
      const message = sent.body.data;
      expect(message.media).toEqual([processingEntry(id)]);
      for (const socket of [adaSocket, bobSocket]) {
        const [pushed] = await waitForFramed(socket, realtimeFrameTypes.message);
        expect(pushed?.id).toBe(message.id);
        expect(pushed?.media).toEqual([processingEntry(id)]);
      }

      await h.runOutboxOnce();

      const rejected = {
        id,
        status: "rejected",
        rejected_reason: expect.stringContaining("png"),
        url: null,
        width: null,
        height: null,
        blurhash: null,
        variants: [],
      };
      const [forAda] = await waitForFramed(adaSocket, realtimeFrameTypes.messageMedia);
      expect(forAda).toMatchObject({ id: message.id, seq: message.seq, body: "a jpeg, honest" });
      expect(forAda?.media).toEqual([rejected]);
      const [forBob] = await waitForFramed(bobSocket, realtimeFrameTypes.messageMedia);
      expect(forBob).toMatchObject({ id: message.id, seq: message.seq, body: "a jpeg, honest" });
      expect(forBob?.media).toEqual([]);

      // Reads say the same, and the other participant can no longer read the asset.
      expect((await chat.page(ada, conversationId)).map((m) => [m.id, m.media])).toEqual([
        [message.id, [rejected]],
      ]);
      expect((await chat.page(bob, conversationId)).map((m) => [m.id, m.media])).toEqual([[message.id, []]]);
      expect((await h.get(`/api/v1/media/${id}`, { token: bob.accessToken })).status).toBe(403);

      const notices = async (who: SignedIn) => {
        const res = await h.get<Body<NotificationDto[]>>("/api/v1/notifications", { token: who.accessToken });
        expect(res.status).toBe(200);

        return res.body.data.filter((notice) => notice.kind === "media.rejected");
      };
      const [notice, ...more] = await notices(ada);
      expect(more).toEqual([]);
      expect(notice?.data).toMatchObject({ media_asset_id: id, purpose: "message" });
      expect(notice?.body).toContain("png");
      expect(await notices(bob)).toEqual([]);

      // A redelivery of the processing (its lease ran out after the outcome was recorded) signals
      // the message again, per participant, and writes no second notice; another batch, nothing.
      const { rowCount } = await h.db.sql.query(
        `UPDATE outbox_events SET processed_at = NULL, available_at = created_at
          WHERE kind = 'media.uploaded' AND payload->>'media_asset_id' = $1`,
        [id],
      );
      expect(rowCount).toBe(1);
      await h.runOutboxOnce();
      await h.runOutboxOnce();
      const [, againForAda] = await waitForFramed(adaSocket, realtimeFrameTypes.messageMedia, 2);
      const [, againForBob] = await waitForFramed(bobSocket, realtimeFrameTypes.messageMedia, 2);
      expect(againForAda?.media).toEqual([rejected]);
      expect(againForBob?.media).toEqual([]);
      expect((await notices(ada)).map((found) => found.id)).toEqual([notice?.id]);
      adaSocket.close();
      bobSocket.close();
    });

    it("gives a socket that connects after the image became ready the message as it is now (after=0 resume)", async () => {
      const { ada, bob, conversationId } = await chat.pair();
      const id = await chat.freshUpload(ada);
      const sent = await chat.send(ada, conversationId, { body: "later", media_asset_ids: [id] });
      expect(sent.status).toBe(201);
      expect(sent.body.data.media).toEqual([processingEntry(id)]);
      await h.runOutboxOnce();

      const bobSocket = await api.connect(conversationId, bob.accessToken, { after: 0 });
      const [pushed] = await waitForFramed(bobSocket, realtimeFrameTypes.message);
      expect(pushed).toMatchObject({ id: sent.body.data.id, seq: sent.body.data.seq });
      expect(pushed?.media).toEqual([readyEntry(id)]);
      expect((await fetch(pushed?.media[0]?.url ?? "")).status).toBe(200);
      // It was sent the message as it is: nothing to change.
      await sleep(100);
      expect(framed(bobSocket, realtimeFrameTypes.message)).toHaveLength(1);
      expect(framed(bobSocket, realtimeFrameTypes.messageMedia)).toEqual([]);
      bobSocket.close();
    });
  },
);

// The worker's build, as `node apps/worker/dist/main.js` runs it (turbo builds before tests).
const workerMain = new URL("../../../../worker/dist/main.js", import.meta.url);

describe.skipIf(!onPostgres || !natsReachable)(
  `a separate worker process on REALTIME_FANOUT=nats (PostgreSQL only: a second process needs a server database; needs a NATS server at ${natsUrl}; skipped otherwise)`,
  () => {
    let s3: LocalS3;
    let h: Harness;
    let api: TestServer;
    let fanOut: ReturnType<ReturnType<typeof natsMode>["setup"]>;
    let dataDir: string;

    beforeAll(async () => {
      builtEntry(workerMain);
      dataDir = mkdtempSync(path.join(tmpdir(), "agora-worker-"));
      fanOut = natsMode().setup();
      s3 = await startLocalS3();
      h = await createHarness({ seed: false, config: { s3: s3.config, ...fanOut.config } });
      api = await startServer(h);
    });
    afterAll(async () => {
      await api?.close();
      await h?.close();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("processes the image and its message_media frame reaches the API's open socket through NATS", async () => {
      const chat = chatOn(h);
      const { ada, bob, conversationId } = await chat.pair();
      const bobSocket = await api.connect(conversationId, bob.accessToken);
      const id = await chat.freshUpload(ada);
      const sent = await chat.send(ada, conversationId, { body: "from afar", media_asset_ids: [id] });
      expect(sent.status).toBe(201);
      const [pushed] = await waitForFramed(bobSocket, realtimeFrameTypes.message);
      expect(pushed?.media).toEqual([processingEntry(id)]);

      const worker = startProcess({
        args: [builtEntry(workerMain)],
        env: {
          LOG_LEVEL: "info",
          WORKER_HEALTH_PORT: "0",
          DATA_DIR: dataDir,
          DATABASE_URL: h.databaseUrl ?? "",
          S3_ENDPOINT: s3.config.endpoint,
          S3_REGION: s3.config.region,
          S3_BUCKET: s3.config.bucket,
          S3_ACCESS_KEY_ID: s3.config.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
          S3_FORCE_PATH_STYLE: "true",
          ...fanOut.env,
        },
      });
      try {
        const [changed] = await bobSocket
          .waitFor(realtimeFrameTypes.messageMedia, 1, 20_000)
          .catch((error) => {
            throw new Error(`${String(error)}; the worker said:\n${worker.output()}`);
          });
        const message = changed?.data as unknown as MessageDto | undefined;
        expect(message?.id).toBe(sent.body.data.id);
        expect(message?.media).toEqual([readyEntry(id)]);
        // The API process has no worker: the frame came from the worker's NATS publish.
        expect(h.config.worker).toBe("off");
      } finally {
        worker.child.kill("SIGTERM");
      }
      expect(await worker.exited).toBe(0);
      expect(worker.output()).toContain('"realtime_fanout":"nats"');
      bobSocket.close();
    });
  },
);
