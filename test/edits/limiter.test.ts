import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkLimiter } from '../../src/edits/limiter.ts';
import type { AppError } from '../../src/errors.ts';

test('the limiter runs at most N at once, lets a waiter in when a slot frees, and refuses after the wait', async () => {
  const limiter = new WorkLimiter(2, 50);
  let running = 0;
  let peak = 0;
  const job = (ms: number) =>
    limiter.run(async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(ms);
      running--;
      return ms;
    });
  // Two run, the third waits and gets the slot the 10 ms job frees.
  assert.deepEqual(await Promise.all([job(10), job(30), job(5)]), [10, 30, 5]);
  assert.equal(peak, 2);
  // Two hold their slots past the wait: the third is refused with 503 and Retry-After.
  const results = await Promise.allSettled([job(200), job(200), job(1)]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected']);
  const refusal = (results[2] as PromiseRejectedResult).reason as AppError;
  assert.equal(refusal.code, 'provider_unavailable');
  assert.equal(refusal.status, 503);
  assert.equal(refusal.headers['retry-after'], '1');
  assert.equal(limiter.active, 0);
});
