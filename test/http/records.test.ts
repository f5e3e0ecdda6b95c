import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoTimestamp } from '../../src/http/records.ts';

test('isoTimestamp writes what Date#toISOString writes, for every kind of instant', () => {
  const edges = [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 86_399_999, 86_400_000, 951_782_400_000 /* 2000-02-29 */,
    1_700_000_000_123, 4_102_444_799_999, 253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001, 1.5, Number.NaN];
  // Random instants across four centuries, and runs inside one day and across midnight, so the
  // cached date part is both reused and replaced.
  let seed = 12345;
  const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const random = Array.from({ length: 5000 }, () => Math.floor(next() * 12_000_000_000_000));
  const run = Array.from({ length: 2000 }, (_, i) => 1_764_028_800_000 - 1_000_000 + i * 997);
  for (const ms of [...edges, ...random, ...run]) {
    let expected: string | undefined;
    try {
      expected = new Date(ms).toISOString();
    } catch {
      assert.throws(() => isoTimestamp(ms), RangeError, `${ms}`);
      continue;
    }
    assert.equal(isoTimestamp(ms), expected, `${ms}`);
  }
});
