import { randomBytes } from 'node:crypto';
import { startTestApp, upload } from '../test/helpers/app.ts';

/**
 * `npm exec -- node bench/dedupe-timing.ts [files]`: how long an upload takes when its
 * bytes are new, when another account already stores them, and when the same account does. With
 * deduplication within an account only, the first two must cost the same: timing then tells an
 * account nothing about another's files. Medians over interleaved uploads of 16 KiB files, on
 * SQLite, in process (no network), as ratios against new bytes.
 */
const files = Number(process.argv[2] ?? 300);
const t = await startTestApp('sqlite');
try {
  const theirs = Array.from({ length: files }, () => randomBytes(16 * 1024));
  for (const bytes of theirs) await upload(t, [{ name: 'x.bin', content: bytes }], { key: t.otherKey });
  const mine = Array.from({ length: files }, () => randomBytes(16 * 1024));
  for (const bytes of mine) await upload(t, [{ name: 'x.bin', content: bytes }]);
  const timings: Record<'new' | 'another account stores them' | 'the same account stores them', number[]> = { new: [], 'another account stores them': [], 'the same account stores them': [] };
  const timed = async (kind: keyof typeof timings, content: Buffer) => {
    const started = performance.now();
    const res = await upload(t, [{ name: 'x.bin', content }]);
    timings[kind].push(performance.now() - started);
    if (res.statusCode !== 201) throw new Error(res.body);
  };
  // Interleaved, so that the machine's drift touches the three alike.
  for (let i = 0; i < files; i++) {
    await timed('new', randomBytes(16 * 1024));
    await timed('another account stores them', theirs[i]!);
    await timed('the same account stores them', mine[i]!);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const baseline = median(timings.new);
  for (const [kind, values] of Object.entries(timings)) console.log(`${kind}: median ${median(values).toFixed(2)} ms (${(median(values) / baseline).toFixed(2)}x new bytes)`);
} finally {
  await t.close();
}
