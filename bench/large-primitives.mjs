// The I/O a large transfer is made of, in plain JavaScript so that any Node runs it (the server
// itself needs Node 22+): raw write + fsync and raw read of one file, then the same bytes up and
// down over node:http between two processes of this Node, the receiving side hashing them and
// writing them a megabyte at a time (as Tessera's staging does), the sending side streaming the file
// in 1 MiB chunks (as its downloads do). Prints one JSON line of MB/s.
//   for i in 1 2 3; do /usr/bin/node bench/large-primitives.mjs 512; npm exec -- node bench/large-primitives.mjs 512; done
// (the system's Node 20 and the project's Node 24 alternating, in one run)
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';

const MiB = 2 ** 20;

if (process.argv[2] === '--serve') {
  // The server: PUT /x receives into a file (hash, 1 MiB writev, fdatasync); GET /x sends it.
  const file = process.argv[3];
  const server = http.createServer(async (req, res) => {
    if (req.method === 'PUT') {
      const handle = await fs.open(file, 'w');
      const hash = createHash('sha256');
      let pending = [];
      let pendingBytes = 0;
      for await (const chunk of req) {
        hash.update(chunk);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= MiB) {
          await handle.writev(pending);
          pending = [];
          pendingBytes = 0;
        }
      }
      if (pending.length) await handle.writev(pending);
      await handle.datasync();
      await handle.close();
      res.end(hash.digest('hex'));
    } else {
      const handle = await fs.open(file, 'r');
      const { size } = await handle.stat();
      res.writeHead(200, { 'content-length': size });
      await pipeline(handle.createReadStream({ highWaterMark: MiB }), res);
    }
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
} else {
  const size = Number(process.argv[2] ?? 1024) * MiB;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-large-prim-'));
  const block = randomBytes(MiB);
  const chunks = function* () {
    for (let sent = 0; sent < size; sent += MiB) yield block.subarray(0, Math.min(MiB, size - sent));
  };
  const sink = () => {
    const hash = createHash('sha256');
    return new Writable({ write(chunk, _e, done) { hash.update(chunk); done(); } });
  };
  const mbps = (started) => size / MiB / ((performance.now() - started) / 1000);
  try {
    const raw = path.join(dir, 'raw.bin');
    let started = performance.now();
    const handle = await fs.open(raw, 'w');
    for (const chunk of chunks()) await handle.write(chunk);
    await handle.sync();
    await handle.close();
    const rawWrite = mbps(started);
    started = performance.now();
    await pipeline((await fs.open(raw)).createReadStream(), sink());
    const rawRead = mbps(started);
    await fs.rm(raw);

    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve', path.join(dir, 'served.bin')], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
    try {
      started = performance.now();
      await new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: '/x' }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        pipeline(chunks(), req).catch(reject);
      });
      const upload = mbps(started);
      started = performance.now();
      await new Promise((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/x' }, (res) => pipeline(res, sink()).then(resolve, reject)).on('error', reject);
      });
      const download = mbps(started);
      console.log(JSON.stringify({ node: process.version, mib: size / MiB, rawWrite, rawRead, upload, download }));
    } finally {
      child.kill();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
