// Why a large transfer costs Node 24 more than Node 20: a bare node:http server receives MiB
// blocks and drops them, counting its own garbage collections by kind. Plain JavaScript, so the
// system's Node 20 and the project's Node 24 run the same file:
//   for n in /usr/bin/node node_modules/.bin/node; do $n bench/large-gc.mjs 256; done
//   node_modules/.bin/node bench/large-gc.mjs 256 --external-memory-accounted-in-global-limit
// Arguments: MiB per upload (256), then V8 flags for the server. Three uploads; prints the
// server's full (mark-compact) and young-generation collections, their milliseconds, its CPU and
// its page faults (memory taken from the system anew).
/* global fetch */
import { fork } from 'node:child_process';
import http from 'node:http';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';

if (process.env.LARGE_GC_SERVER) {
  const counts = { major: 0, minor: 0, majorMs: 0, minorMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = entry.detail?.kind ?? entry.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) [counts.major, counts.majorMs] = [counts.major + 1, counts.majorMs + entry.duration];
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) [counts.minor, counts.minorMs] = [counts.minor + 1, counts.minorMs + entry.duration];
    }
  }).observe({ entryTypes: ['gc'] });
  const server = http.createServer((req, res) => {
    if (req.url === '/counts') return res.end(JSON.stringify({ ...counts, cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000, faults: process.resourceUsage().minorPageFault }));
    req.on('data', () => {});
    req.on('end', () => res.end('ok'));
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  const mib = Number(process.argv[2] ?? 256);
  const child = fork(new URL(import.meta.url).pathname, [], { env: { ...process.env, LARGE_GC_SERVER: '1' }, execArgv: process.argv.slice(3) });
  const port = await new Promise((resolve) => child.once('message', resolve));
  const block = randomBytes(2 ** 20);
  const counts = async () => JSON.parse(await (await fetch(`http://127.0.0.1:${port}/counts`)).text());
  const before = await counts();
  const started = performance.now();
  for (let upload = 0; upload < 3; upload++) {
    await new Promise((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/' }, (res) => res.resume().on('end', resolve));
      req.on('error', reject);
      let sent = 0;
      const more = () => {
        while (sent < mib) {
          sent++;
          if (!req.write(block)) return void req.once('drain', more);
        }
        req.end();
      };
      more();
    });
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await counts();
  child.kill();
  const d = (key) => after[key] - before[key];
  console.log(`${process.version} ${process.argv.slice(3).join(' ') || '(no flags)'}: 3 x ${mib} MiB in ${seconds.toFixed(1)} s, full GCs ${d('major')} (${d('majorMs').toFixed(0)} ms), young GCs ${d('minor')} (${d('minorMs').toFixed(0)} ms), server CPU ${d('cpuMs').toFixed(0)} ms, page faults ${d('faults')}`);
}
