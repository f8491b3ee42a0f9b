// A real local S3 server for the tests: s3rver, on loopback, with a temporary directory. s3rver
// does not check Signature V4 (it accepts any presigned URL), so its clients reach it through a
// gate that verifies the signature of every presigned (query-string) request with AWS's documented
// algorithm, implemented here independently of the SDK, and refuses a mismatch or an expired URL
// with 403 as S3 does. The SDK's own calls (HEAD, DELETE; signed in a header) pass through as they are.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { S3Config } from "@agora/process/config";
import S3rver from "s3rver";
import { expect } from "vitest";

const ACCESS_KEY = "S3RVER";
// s3rver checks no signature (the gate below does), so the secret can differ from the key id.
const SECRET_KEY = "agora-local-s3-secret-0123456789";
const BUCKET = "agora-media";

const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

export type PresignCheck = "valid" | "expired" | "signature_mismatch" | "not_presigned";

/**
 * Checks a presigned request as an S3 server does (Signature V4, query-string form): the canonical
 * request is rebuilt from what actually arrives (method, path, query, and the values of the signed
 * headers), so a request with another Content-Type or Content-Length than the one signed fails.
 */
export const checkPresigned = (
  method: string,
  url: URL,
  headers: Record<string, string | string[] | undefined>,
  now: Date = new Date(),
  secretAccessKey = SECRET_KEY,
): PresignCheck => {
  const query = url.searchParams;
  const signature = query.get("X-Amz-Signature");
  const credential = query.get("X-Amz-Credential");
  const amzDate = query.get("X-Amz-Date");
  if (!signature || !credential || !amzDate) {
    return "not_presigned";
  }
  const signedAt = Date.parse(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"),
  );
  if (now.getTime() > signedAt + Number(query.get("X-Amz-Expires") ?? 0) * 1000) {
    return "expired";
  }
  const signedHeaders = (query.get("X-Amz-SignedHeaders") ?? "").split(";");
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join("&");
  const canonicalHeaders = signedHeaders
    .map(
      (name) =>
        `${name}:${String(headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonicalRequest = [
    method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(";"),
    query.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD",
  ].join("\n");
  const [, date = "", region = "", service = ""] = credential.split("/");
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    `${date}/${region}/${service}/aws4_request`,
    createHash("sha256").update(canonicalRequest).digest("hex"),
  ].join("\n");
  const key = [date, region, service, "aws4_request"].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${secretAccessKey}`,
  );
  const expected = hmac(key, stringToSign);
  const given = Buffer.from(signature, "hex");

  return given.length === expected.length && timingSafeEqual(given, expected)
    ? "valid"
    : "signature_mismatch";
};

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export type LocalS3 = Awaited<ReturnType<typeof startLocalS3>>;

/** s3rver behind the signature gate; `config` is what the API's S3_* settings would say. */
export const startLocalS3 = async () => {
  const directory = mkdtempSync(path.join(tmpdir(), "agora-s3-"));
  const s3rver = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const backend = await s3rver.run();
  const refused: { method: string; path: string; reason: PresignCheck }[] = [];

  const gate = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "localhost"}`);
    const check = checkPresigned(incoming.method ?? "GET", url, incoming.headers);
    if (check === "expired" || check === "signature_mismatch") {
      refused.push({ method: incoming.method ?? "", path: url.pathname, reason: check });
      incoming.resume();
      outgoing.writeHead(403, { "content-type": "application/xml" });
      outgoing.end(
        check === "expired"
          ? s3Error("AccessDenied", "Request has expired")
          : s3Error(
              "SignatureDoesNotMatch",
              "The request signature we calculated does not match the signature you provided.",
            ),
      );

      return;
    }
    const forward = request(
      {
        host: backend.address,
        port: backend.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers as IncomingHttpHeaders,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => {
      outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
  const { port } = gate.address() as AddressInfo;

  const config: S3Config = {
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    bucket: BUCKET,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    forcePathStyle: true,
  };
  /** Where an object with `key` would be read without a signature (s3rver serves it; for checks). */
  const objectUrl = (key: string) => `http://${backend.address}:${backend.port}/${BUCKET}/${key}`;

  return {
    config,
    /** Presigned requests the gate refused, and why. */
    refused,
    /** Whether the object exists in the store (read directly from s3rver). */
    async has(key: string): Promise<boolean> {
      return (await fetch(objectUrl(key), { method: "HEAD" })).status === 200;
    },
    /** Writes an object straight into the store, unsigned: a store that took whatever it was sent. */
    async putUnsigned(key: string, body: Buffer, contentType: string): Promise<void> {
      const res = await fetch(objectUrl(key), {
        method: "PUT",
        headers: { "content-type": contentType },
        body,
      });
      if (res.status !== 200) {
        throw new Error(`s3rver PUT answered ${res.status}`);
      }
    },
    async close() {
      await new Promise<void>((resolve) => gate.close(() => resolve()));
      gate.closeAllConnections();
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

/** An MP4 as far as magic numbers go (an `ftyp` box of brand `isom`), 300 bytes. */
export const TINY_MP4 = Buffer.concat([
  Buffer.from("000000186674797069736f6d0000020069736f6d69736f32", "hex"),
  Buffer.alloc(276, 7),
]);

type Poster = {
  post<T>(path: string, body?: unknown, init?: { token?: string }): Promise<{ status: number; body: T }>;
};

/** A real 1×1 PNG: the default upload, which processing accepts. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWM4Y2wMAAMBATOR31alAAAAAElFTkSuQmCC",
  "base64",
);
type UploadAnswer = {
  data: {
    id: string;
    upload_url: string;
    method: string;
    headers: Record<string, string>;
    expires_at: string;
  };
};

/**
 * The media flow as a client runs it: ask the API for an upload URL, then PUT the bytes to the
 * store with exactly the headers it returned. Returns the asset id and the store's status.
 */
export const uploadMedia = async (
  api: Poster,
  token: string,
  options: { purpose?: string; mimeType?: string; bytes?: Buffer; put?: boolean } = {},
) => {
  const bytes = options.bytes ?? TINY_PNG;
  const asked = await api.post<UploadAnswer>(
    "/api/v1/media/upload",
    {
      purpose: options.purpose ?? "moment",
      mime_type: options.mimeType ?? "image/png",
      size_bytes: bytes.length,
    },
    { token },
  );
  if (asked.status !== 201) {
    throw new Error(`upload request answered ${asked.status}`);
  }
  const ticket = asked.body.data;
  const stored =
    options.put === false
      ? undefined
      : await fetch(ticket.upload_url, { method: ticket.method, headers: ticket.headers, body: bytes });

  return { id: ticket.id, ticket, bytes, storeStatus: stored?.status };
};

type Processor = Poster & {
  get<T>(path: string, init?: { token?: string }): Promise<{ status: number; body: T }>;
  runOutboxOnce(): Promise<unknown>;
};

/**
 * An upload processed before a record takes it: uploaded, confirmed (`POST /media/{id}/confirm`,
 * which queues its processing) and processed by one outbox batch, as the worker would.
 */
export const processedMedia = async (
  api: Processor,
  token: string,
  options: { purpose?: string; mimeType?: string; bytes?: Buffer } = {},
) => {
  const uploaded = await uploadMedia(api, token, options);
  const confirmed = await api.post<{ data: { status: string } }>(
    `/api/v1/media/${uploaded.id}/confirm`,
    undefined,
    { token },
  );
  if (confirmed.status !== 200) {
    throw new Error(`confirming the upload answered ${confirmed.status}`);
  }
  await api.runOutboxOnce();

  return uploaded;
};

/** What every read shows of an image still being processed: its id and state, nothing to fetch. */
export const processingMediaItem = (id: string) => ({
  id,
  status: "processing",
  rejected_reason: null,
  url: null,
  width: null,
  height: null,
  blurhash: null,
  variants: [],
});

/** What every read shows of TINY_PNG once processed: its URLs under media/, 1×1, both variants. */
export const readyMediaItem = (id: string) => ({
  id,
  status: "ready",
  rejected_reason: null,
  url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/agora-media/media/${id}\\.full\\?`)),
  width: 1,
  height: 1,
  blurhash: expect.any(String),
  variants: [
    expect.objectContaining({
      name: "thumb",
      width: 1,
      height: 1,
      url: expect.stringContaining("thumb.webp"),
    }),
    expect.objectContaining({
      name: "display",
      width: 1,
      height: 1,
      url: expect.stringContaining("display.webp"),
    }),
  ],
});
