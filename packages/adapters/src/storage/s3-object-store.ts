import { StorageUnavailableError } from "@agora/domain/media/media.errors";
import type { ObjectStore } from "@agora/domain/media/media.ports";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";

/** S3_*: where the bucket is and how to reach it. */
export type S3Settings = {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

/** The headers a presigned upload binds: the store refuses a PUT whose type or length differ. */
const UPLOAD_SIGNED_HEADERS = new Set(["content-type", "content-length"]);

const isNotFound = (error: unknown): boolean => {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };

  return name === "NotFound" || name === "NoSuchKey" || $metadata?.httpStatusCode === 404;
};

/**
 * The object store over an S3-compatible service. Presigning is local (no call); HEAD, GET, PUT,
 * COPY and DELETE are bounded by `timeoutMs` as a whole (connection, response and the SDK's retry included), and
 * any failure becomes StorageUnavailableError (503). The SDK's default request checksums are
 * off: a presigned PUT would otherwise carry the checksum of an empty body, which the store checks
 * against the real one.
 */
export const createS3ObjectStore = (
  config: S3Settings,
  timeoutMs: number,
): ObjectStore & { close(): void } => {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  const bucket = config.bucket;
  const call = async <T>(what: string, work: (abortSignal: AbortSignal) => Promise<T>): Promise<T> => {
    try {
      return await work(AbortSignal.timeout(timeoutMs));
    } catch (error) {
      throw new StorageUnavailableError(`Media storage did not complete the ${what}; try again later.`, {
        cause: error,
      });
    }
  };

  return {
    presignUpload: (key, object, signing) =>
      getSignedUrl(
        client,
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          ContentType: object.contentType,
          ContentLength: object.contentLength,
        }),
        {
          expiresIn: signing.expiresInSeconds,
          signingDate: signing.at,
          signableHeaders: UPLOAD_SIGNED_HEADERS,
        },
      ),

    presignRead: (key, signing) =>
      getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn: signing.expiresInSeconds,
        signingDate: signing.at,
      }),

    async head(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), {
          abortSignal: AbortSignal.timeout(timeoutMs),
        });

        return { sizeBytes: head.ContentLength ?? 0, contentType: head.ContentType };
      } catch (error) {
        if (isNotFound(error)) {
          return null;
        }
        throw new StorageUnavailableError("Media storage did not answer; try again later.", { cause: error });
      }
    },

    async delete(key) {
      await call("deletion", (abortSignal) =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal }),
      );
    },

    async get(key, maxBytes) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), {
          abortSignal: AbortSignal.timeout(timeoutMs),
        });
        if ((object.ContentLength ?? 0) > maxBytes || !object.Body) {
          // Not read: the stream is let go (in Node it is an IncomingMessage).
          (object.Body as { destroy?: () => void } | undefined)?.destroy?.();

          return null;
        }
        const bytes = await object.Body.transformToByteArray();

        return bytes.length > maxBytes ? null : bytes;
      } catch (error) {
        if (isNotFound(error)) {
          return null;
        }
        throw new StorageUnavailableError("Media storage did not answer; try again later.", { cause: error });
      }
    },

    async put(key, bytes, contentType) {
      await call("upload", (abortSignal) =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.length,
          }),
          { abortSignal },
        ),
      );
    },

    async copy(from, to) {
      try {
        // CopySource is `<bucket>/<key>`, URL-encoded; the default MetadataDirective COPY keeps
        // the source's Content-Type.
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: to,
            CopySource: `${bucket}/${from.split("/").map(encodeURIComponent).join("/")}`,
          }),
          { abortSignal: AbortSignal.timeout(timeoutMs) },
        );

        return true;
      } catch (error) {
        if (isNotFound(error)) {
          return false;
        }
        throw new StorageUnavailableError("Media storage did not complete the copy; try again later.", {
          cause: error,
        });
      }
    },

    close: () => client.destroy(),
  };
};
