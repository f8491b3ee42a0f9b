import type { ConversationDto, MessageDto } from "@agora/contracts/chat";
import { realtimeFrameTypes } from "@agora/contracts/realtime";
import { onPostgres } from "@agora/db/test/databases";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type SignedIn } from "../../../test/harness";
import { conversationPair, startServer, type TestServer } from "../../../test/realtime";
import { type LocalS3, processedMedia, startLocalS3, TINY_PNG, uploadMedia } from "../../../test/s3";

type Body<T> = {
  data: T;
  error: { code: string; details?: { path: string; message: string }[] } | null;
};

describe("chat messages with media", () => {
  let s3: LocalS3;
  let h: Harness;
  let api: TestServer;

  beforeAll(async () => {
    s3 = await startLocalS3();
    h = await createHarness({ seed: false, config: { s3: s3.config } });
    api = await startServer(h);
  });
  afterAll(async () => {
    await api?.close();
    await h?.close();
    await s3?.close();
  });

  const jpeg = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 200 } } })
      .jpeg()
      .toBuffer();
  const photo = async (who: SignedIn, purpose = "message") =>
    processedMedia(h, who.accessToken, { purpose, mimeType: "image/jpeg", bytes: await jpeg(800, 600) });
  const pair = () => conversationPair(h);
  const send = (who: SignedIn, conversationId: string, body: Record<string, unknown>) =>
    h.post<Body<MessageDto>>(`/api/v1/chat/conversations/${conversationId}/messages`, body, {
      token: who.accessToken,
    });
  const page = (who: SignedIn, conversationId: string) =>
    h.get<Body<MessageDto[]>>(`/api/v1/chat/conversations/${conversationId}/messages`, {
      token: who.accessToken,
    });
  const readMedia = (id: string, who: SignedIn) => h.get(`/api/v1/media/${id}`, { token: who.accessToken });
  const stored = async (conversationId: string) =>
    (
      await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM chat_messages WHERE conversation_id = $1",
        [conversationId],
      )
    ).rows[0]?.n;
  const attached = async (ids: string[]) =>
    (
      await h.db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM media_assets WHERE id = ANY($1::uuid[]) AND attached_at IS NOT NULL",
        [ids],
      )
    ).rows[0]?.n;

  it("carries the sender's images to the other participant (messages, conversation list, realtime), privately", async () => {
    const { ada, bob, conversationId } = await pair();
    const socket = await api.connect(conversationId, bob.accessToken);
    const first = await photo(ada);
    const second = await photo(ada);

    const sent = await send(ada, conversationId, {
      body: "  the two rooms  ",
      media_asset_ids: [first.id, second.id],
    });
    expect(sent.status).toBe(201);
    expect(sent.body.data.body).toBe("the two rooms");
    expect(sent.body.data.message_type).toBe("text");
    expect(sent.body.data.media.map((item) => item.id)).toEqual([first.id, second.id]);

    const read = await page(bob, conversationId);
    expect(read.status).toBe(200);
    const [item] = read.body.data.at(-1)?.media ?? [];
    expect(read.body.data.at(-1)?.media.map((m) => m.id)).toEqual([first.id, second.id]);
    expect(item).toMatchObject({ id: first.id, width: 800, height: 600 });
    expect(item?.blurhash).toEqual(expect.any(String));
    expect(item?.variants.map((v) => [v.name, v.width, v.height])).toEqual([
      ["thumb", 320, 240],
      ["display", 800, 600],
    ]);
    // Private URLs: signed for this read, 5 minutes, and they fetch the processed copies.
    expect(new URL(item?.url ?? "").searchParams.get("X-Amz-Expires")).toBe("300");
    for (const url of [item?.url, ...(item?.variants.map((v) => v.url) ?? [])]) {
      expect((await fetch(url ?? "")).status).toBe(200);
    }

    // The conversation list's newest message carries them too.
    const list = await h.get<Body<ConversationDto[]>>("/api/v1/chat/conversations", {
      token: bob.accessToken,
    });
    const listed = list.body.data.find((conversation) => conversation.id === conversationId);
    expect(listed?.last_message?.media.map((m) => m.id)).toEqual([first.id, second.id]);

    // The realtime frame to the other participant carries the media with working URLs.
    const [frame] = await socket.waitFor(realtimeFrameTypes.message);
    const pushed = frame?.data as MessageDto | undefined;
    expect(pushed?.id).toBe(sent.body.data.id);
    expect(pushed?.media.map((m) => m.id)).toEqual([first.id, second.id]);
    expect((await fetch(pushed?.media[1]?.url ?? "")).status).toBe(200);
    socket.close();

    // GET /media/{id}: both participants, nobody else (administrators included).
    const stranger = await h.signIn();
    const admin = await h.signIn({ role: "admin" });
    expect((await readMedia(first.id, bob)).status).toBe(200);
    expect((await readMedia(first.id, ada)).status).toBe(200);
    expect((await readMedia(first.id, stranger)).status).toBe(403);
    expect((await readMedia(first.id, admin)).status).toBe(403);
    const { rows } = await h.db.sql.query<{ visibility: string }>(
      "SELECT visibility FROM media_assets WHERE id = ANY($1::uuid[])",
      [[first.id, second.id]],
    );
    expect(rows.map((row) => row.visibility)).toEqual(["private", "private"]);
  });

  it("answers a retry with its client_message_id with the same message and media; other media is 409", async () => {
    const { ada, bob, conversationId } = await pair();
    const image = await photo(ada);
    const body = { body: "here", client_message_id: "retry-1", media_asset_ids: [image.id] };
    const first = await send(ada, conversationId, body);
    expect(first.status).toBe(201);
    const again = await send(ada, conversationId, body);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.media.map((m) => m.id)).toEqual([image.id]);
    expect(again.body.data.media[0]?.blurhash).toBe(first.body.data.media[0]?.blurhash);

    const other = await photo(ada);
    const conflict = await send(ada, conversationId, { ...body, media_asset_ids: [other.id] });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error?.code).toBe("idempotency_conflict");
    const textOnly = await send(ada, conversationId, { body: "here", client_message_id: "retry-1" });
    expect(textOnly.status).toBe(409);
    expect(await stored(conversationId)).toBe(1);
    expect(await attached([other.id])).toBe(0);
    expect((await readMedia(image.id, bob)).status).toBe(200);
  });

  it("refuses another purpose, another's asset, one taken already, one not uploaded or rejected, or too many, and stores nothing", async () => {
    const { ada, bob, conversationId } = await pair();
    const mine = await photo(ada);
    const forMoment = await photo(ada, "moment");
    const bobs = await photo(bob);

    const wrongPurpose = await send(ada, conversationId, {
      body: "x",
      media_asset_ids: [mine.id, forMoment.id],
    });
    expect(wrongPurpose.status).toBe(422);
    expect(wrongPurpose.body.error?.code).toBe("validation_failed");
    expect(wrongPurpose.body.error?.details?.[0]?.path).toBe("media_asset_ids.1");

    const foreign = await send(ada, conversationId, { body: "x", media_asset_ids: [bobs.id] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error?.details?.[0]?.path).toBe("media_asset_ids.0");

    const twice = await send(ada, conversationId, { body: "x", media_asset_ids: [mine.id, mine.id] });
    expect(twice.status).toBe(422);

    const notUploaded = await uploadMedia(h, ada.accessToken, { purpose: "message", put: false });
    const missing = await send(ada, conversationId, { body: "x", media_asset_ids: [notUploaded.id] });
    expect(missing.status).toBe(422);
    expect(missing.body.error?.details?.[0]?.message).toMatch(/upload has not been completed/);
    const notPng = await processedMedia(h, ada.accessToken, {
      purpose: "message",
      mimeType: "image/jpeg",
      bytes: TINY_PNG,
    });
    const rejected = await send(ada, conversationId, { body: "x", media_asset_ids: [notPng.id] });
    expect(rejected.status).toBe(422);
    expect(rejected.body.error?.details?.[0]?.message).toMatch(/image\/png/);

    const six = await send(ada, conversationId, {
      body: "x",
      media_asset_ids: Array.from({ length: 6 }, () => mine.id),
    });
    expect(six.status).toBe(422);

    // The body stays required with media.
    const blank = await send(ada, conversationId, { body: "  ", media_asset_ids: [mine.id] });
    expect(blank.status).toBe(422);
    expect(blank.body.error?.details?.[0]?.path).toBe("body");

    expect(await stored(conversationId)).toBe(0);
    expect(await attached([mine.id, forMoment.id, bobs.id])).toBe(0);

    // A stranger to the conversation is 404 before anything is said about the media.
    const stranger = await h.signIn();
    const strangers = await photo(stranger);
    const outsider = await send(stranger, conversationId, { body: "x", media_asset_ids: [strangers.id] });
    expect(outsider.status).toBe(404);

    // Sent once, an asset is on that message only.
    expect((await send(ada, conversationId, { body: "one", media_asset_ids: [mine.id] })).status).toBe(201);
    const reused = await send(ada, conversationId, { body: "two", media_asset_ids: [mine.id] });
    expect(reused.status).toBe(422);
    expect(await stored(conversationId)).toBe(1);
  });

  it("keeps the text of a message whose sender deleted the account, without its media", async () => {
    const { ada, bob, conversationId } = await pair();
    const image = await photo(ada);
    expect((await send(ada, conversationId, { body: "bye", media_asset_ids: [image.id] })).status).toBe(201);
    expect((await h.delete("/api/v1/auth/me", { token: ada.accessToken })).status).toBe(200);
    const read = await page(bob, conversationId);
    expect(read.status).toBe(200);
    expect(read.body.data.map((message) => [message.body, message.media])).toEqual([["bye", []]]);
    expect((await readMedia(image.id, bob)).status).toBe(404);
  });

  it.skipIf(!onPostgres)(
    "stores one message when retries race, and gives a raced asset to one message only (PostgreSQL only: parallel connections)",
    async () => {
      const { ada, bob, conversationId } = await pair();
      const image = await photo(ada);
      const body = { body: "racing", client_message_id: "race-1", media_asset_ids: [image.id] };
      const retries = await Promise.all([1, 2, 3].map(() => send(ada, conversationId, body)));
      expect(retries.map((res) => res.status)).toEqual([201, 201, 201]);
      expect(new Set(retries.map((res) => res.body.data.id)).size).toBe(1);
      for (const res of retries) {
        expect(res.body.data.media.map((m) => m.id)).toEqual([image.id]);
      }

      const contested = await photo(ada);
      const answers = await Promise.all(
        ["a", "b"].map((text) => send(ada, conversationId, { body: text, media_asset_ids: [contested.id] })),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([201, 422]);
      expect(await stored(conversationId)).toBe(2);
      const read = await page(bob, conversationId);
      // seq stays gapless: the refused send rolled its seq back with it.
      expect(read.body.data.map((message) => message.seq)).toEqual([1, 2]);
      expect(read.body.data.flatMap((message) => message.media.map((m) => m.id))).toEqual([
        image.id,
        contested.id,
      ]);
    },
  );
});
