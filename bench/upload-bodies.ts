import { randomBytes } from 'node:crypto';

/**
 * What the upload benches send. Each upload carries bytes no earlier upload had: the benches used
 * to send 256 bodies over and over, so that after the first 256 of 3,000 uploads every one was
 * deduplicated (no bytes stored, only its row), and a raw-body upload measured 5,446-7,273/s where
 * uploads of new bytes ran at 3,825-4,227/s (2026-11-27, docs/benchmarks.md).
 */

/** `count` files of the benches' sizes, 4-64 KiB. */
export function smallFiles(count: number): Buffer[] {
  return Array.from({ length: count }, () => randomBytes(4096 + Math.floor(Math.random() * 60 * 1024)));
}

/** One file as a multipart body of one part named "file"; `contentAt` is where its bytes begin. */
export function multipartOne(content: Buffer, tag = 'bench'): { body: Buffer; type: string; contentAt: number } {
  const boundary = `----${tag}${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  return { body: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}`, contentAt: head.length };
}

let stamp = randomBytes(6).readUIntLE(0, 6);

/** A copy of `body` whose 8 bytes at `at` (inside the file's bytes) no other copy has. */
export function distinct(body: Buffer, at = 0): Buffer {
  const copy = Buffer.from(body);
  copy.writeDoubleLE(++stamp, at);
  return copy;
}
