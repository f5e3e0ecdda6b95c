import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createS3Client, type S3Settings } from '../../src/storage/s3-client.ts';
import { reportSkipped } from './skips.ts';

/**
 * The S3 server the tests run against: a running gateway at TESSERA_TEST_S3_ENDPOINT (default:
 * what `scripts/s3-gateway.sh start` runs, with its default keys). Without one the S3 half of a
 * file is reported as skipped; under CI a missing gateway is a failure.
 */
export const S3_TEST = {
  endpoint: process.env.TESSERA_TEST_S3_ENDPOINT ?? 'http://127.0.0.1:7480',
  region: process.env.TESSERA_TEST_S3_REGION ?? 'us-east-1',
  accessKeyId: process.env.TESSERA_TEST_S3_ACCESS_KEY_ID ?? 'tesseratestaccess',
  secretAccessKey: process.env.TESSERA_TEST_S3_SECRET_ACCESS_KEY ?? 'tesseratestsecret0123456789',
};

export function testS3Settings(overrides: Partial<S3Settings> = {}): S3Settings {
  return { ...S3_TEST, bucket: '', prefix: '', forcePathStyle: true, timeoutMs: 10_000, maxAttempts: 3, maxSockets: 64, ...overrides };
}

let available: Promise<boolean> | undefined;

async function probe(): Promise<boolean> {
  const client = createS3Client(testS3Settings({ maxAttempts: 1, timeoutMs: 3000 }));
  try {
    await client.send(new ListBucketsCommand({}));
    return true;
  } catch (error) {
    const why = `${(error as Error).name}: ${(error as Error).message}`;
    if (process.env.CI) throw new Error(`an S3 gateway is required under CI but ${S3_TEST.endpoint} does not answer (${why}); .ci/run starts one with scripts/s3-gateway.sh`);
    reportSkipped('the S3 tests', `no S3 gateway at ${S3_TEST.endpoint} (${why}); start one with scripts/s3-gateway.sh start`);
    return false;
  } finally {
    client.destroy();
  }
}

export function s3Available(): Promise<boolean> {
  available ??= probe();
  return available;
}

/** The engines every store test runs on: local always, S3 when a gateway answers. */
export async function storeEngines(): Promise<Array<'local' | 's3'>> {
  return (await s3Available()) ? ['local', 's3'] : ['local'];
}

export interface TestBucket {
  name: string;
  settings: S3Settings;
  client: S3Client;
  /** The server's settings for this bucket (TESSERA_STORE=s3 and the TESSERA_S3_* values). */
  env: Record<string, string>;
  /** Every object key in the bucket. */
  keys(): Promise<string[]>;
  drop(): Promise<void>;
}

/** A new, empty bucket; drop() empties and removes it. */
export async function freshBucket(): Promise<TestBucket> {
  const name = `tessera-test-${randomBytes(6).toString('hex')}`;
  const settings = testS3Settings({ bucket: name });
  const client = createS3Client(settings);
  await client.send(new CreateBucketCommand({ Bucket: name }));
  const keys = async () => {
    const all: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: name, ContinuationToken }));
      all.push(...(page.Contents ?? []).map((o) => o.Key!));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return all;
  };
  return {
    name,
    settings,
    client,
    keys,
    env: {
      TESSERA_STORE: 's3',
      TESSERA_S3_ENDPOINT: S3_TEST.endpoint,
      TESSERA_S3_REGION: S3_TEST.region,
      TESSERA_S3_BUCKET: name,
      TESSERA_S3_ACCESS_KEY_ID: S3_TEST.accessKeyId,
      TESSERA_S3_SECRET_ACCESS_KEY: S3_TEST.secretAccessKey,
    },
    async drop() {
      try {
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: name }));
        for (const u of uploads.Uploads ?? []) await client.send(new AbortMultipartUploadCommand({ Bucket: name, Key: u.Key, UploadId: u.UploadId }));
        const all = await keys();
        for (let i = 0; i < all.length; i += 1000) {
          await client.send(new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: all.slice(i, i + 1000).map((Key) => ({ Key })) } }));
        }
        await client.send(new DeleteBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
    },
  };
}

export interface S3Outage {
  /** The gateway's address as seen through the proxy. */
  endpoint: string;
  /** The service goes away: open connections are cut, new ones refused. */
  cut(): Promise<void>;
  /** …and comes back on the same address. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the gateway that can be cut and restored: a real outage of the S3
 * service (connections refused and reset) as the server sees it, without touching the gateway.
 */
export async function s3Outage(): Promise<S3Outage> {
  const target = new URL(S3_TEST.endpoint);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 80), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut: stop,
    restore: async () => {
      await listen(port);
    },
    close: async () => {
      if (server.listening) await stop();
    },
  };
}

export interface S3Faults {
  endpoint: string;
  /**
   * The next `count` requests (of those `only` picks, when given) are answered `status` with an S3
   * error (SlowDown, 503) instead of being forwarded.
   */
  failNext(count: number, status?: number, only?: (request: http.IncomingMessage) => boolean): void;
  /** Requests answered with a fault so far. */
  readonly faultsServed: number;
  close(): Promise<void>;
}

/** An HTTP proxy in front of the gateway that can answer with throttling or 5xx errors, as S3 does under load. */
export async function s3Faults(): Promise<S3Faults> {
  const target = new URL(S3_TEST.endpoint);
  let failing = 0;
  let failStatus = 503;
  let failOnly: ((request: http.IncomingMessage) => boolean) | undefined;
  let served = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    if (failing > 0 && (!failOnly || failOnly(req))) {
      failing--;
      served++;
      req.resume();
      req.on('end', () => {
        res.writeHead(failStatus, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${failStatus === 503 ? 'SlowDown' : 'InternalError'}</Code><Message>injected</Message></Error>`);
      });
      return;
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failNext(count, status = 503, only) {
      failing = count;
      failStatus = status;
      failOnly = only;
    },
    get faultsServed() {
      return served;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
