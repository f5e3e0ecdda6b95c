import { CreateBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.ts';
import { BlobStoreUnavailableError } from './blob-store.ts';

/** How to reach an S3-compatible service: the connection part of the TESSERA_S3_* settings. */
export type S3Settings = Pick<S3Config, 'endpoint' | 'region' | 'bucket' | 'prefix' | 'forcePathStyle' | 'accessKeyId' | 'secretAccessKey' | 'timeoutMs' | 'maxAttempts' | 'maxSockets'>;

/** What the SDK says when a request with a streamed body fails: it does not send it again. */
const STREAM_NOT_RETRIED = 'An error was encountered in a non-retryable streaming request.';

/**
 * The SDK's own log, which without one goes to the console. Its warning that a streamed request
 * is not sent again is left out: the store sends such a part again itself, from its file, and
 * fails the upload with its own error when it cannot (S3QuiltStore). Anything else it says goes
 * to the console as before.
 */
export const S3_SDK_LOGGER = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (...content: unknown[]) => {
    // The SDK's own default for its warnings (no logger of ours runs here).
    // eslint-disable-next-line no-console
    if (content[0] !== STREAM_NOT_RETRIED) console.warn(...content);
  },
  error: (...content: unknown[]) => console.error(...content),
};

export function createS3Client(settings: S3Settings): S3Client {
  const agent = { keepAlive: true, maxSockets: settings.maxSockets };
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    maxAttempts: settings.maxAttempts,
    retryMode: 'standard',
    logger: S3_SDK_LOGGER,
    // Quilts carry their own SHA-256 per patch. The SDK's default checksum on streamed bodies is
    // an aws-chunked trailer that some S3 implementations (Ceph 16's gateway) refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      connectionTimeout: Math.min(settings.timeoutMs, 5000),
      requestTimeout: settings.timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: settings.timeoutMs,
      httpAgent: agent,
      httpsAgent: agent,
    },
  });
}

/** The object key of a quilt. */
export function quiltKey(prefix: string, quiltId: string): string {
  return `${prefix}quilts/${quiltId}.quilt`;
}

export function quiltIdOfKey(prefix: string, key: string): string | undefined {
  const match = /^quilts\/([A-Za-z0-9_-]{43})\.quilt$/.exec(key.slice(prefix.length));
  return key.startsWith(prefix) && match ? match[1] : undefined;
}

/** The object (or bucket) is not there: an answer, not an outage. */
export function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.name === 'NoSuchBucket' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Failures that say the service is not answering right now (after the SDK's own retries):
 * network errors, timeouts, throttling and 5xx. They become BlobStoreUnavailableError, which the
 * API answers with 503 and Retry-After. Anything else (access denied, a bad request) is a fault.
 */
export function asUnavailable(error: unknown, what: string): unknown {
  if (error instanceof BlobStoreUnavailableError) return error;
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  const status = e?.$metadata?.httpStatusCode;
  const service = error instanceof S3ServiceException;
  const transient =
    (service && status !== undefined && (status >= 500 || status === 429 || status === 408)) ||
    (!service &&
      (e?.name === 'TimeoutError' ||
        e?.name === 'AbortError' ||
        e?.name === 'RequestTimeout' ||
        ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED'].includes(e?.code ?? '') ||
        /socket hang up|timed? ?out|ECONNREFUSED|ECONNRESET/i.test(e?.message ?? '')));
  return transient ? new BlobStoreUnavailableError(`object storage is unavailable (${what}): ${e?.message ?? e?.name ?? 'unknown error'}`, { cause: error }) : error;
}

/** `tessera s3 create-bucket`: answers what was done, in words. */
export async function createBucket(settings: S3Settings): Promise<string> {
  const client = createS3Client(settings);
  try {
    await client.send(
      new CreateBucketCommand({
        Bucket: settings.bucket,
        // AWS wants the region named, except for its first one.
        CreateBucketConfiguration: !settings.endpoint && settings.region !== 'us-east-1' ? { LocationConstraint: settings.region as never } : undefined,
      }),
    );
    return `created the bucket ${settings.bucket}`;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'BucketAlreadyOwnedByYou') return `the bucket ${settings.bucket} exists already (and is yours)`;
    throw error;
  } finally {
    client.destroy();
  }
}
