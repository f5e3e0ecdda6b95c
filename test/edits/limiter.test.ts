import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkLimiter } from '../../src/edits/limiter.ts';
import type { AppError } from '../../src/errors.ts';

test('the limiter runs at most N at once, lets a waiter in when a slot frees, and refuses after the wait', async () => {
  // Jobs end when the test says so, not after a sleep: a loaded machine (the parallel tier)
  // stretches sleeps past a short wait and failed this test when its jobs slept 10-30 ms.
  let running = 0;
  let peak = 0;
  const job = (limiter: WorkLimiter) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    const done = limiter.run(async () => {
      running++;
      peak = Math.max(peak, running);
      begin();
      await released;
      running--;
      return 'done';
    });
    // A refusal is awaited by the test; this keeps it from counting as unhandled meanwhile.
    done.catch(() => {});
    return { started, release, done: () => done };
  };

  // Two run, the third waits (a wait no stall reaches) and gets the slot the first frees.
  const patient = new WorkLimiter(2, 60_000);
  const [a, b, c] = [job(patient), job(patient), job(patient)];
  await Promise.all([a.started, b.started]);
  assert.equal(running, 2, 'two run');
  a.release();
  await c.started;
  assert.equal(peak, 2, 'never more than two');
  b.release();
  c.release();
  assert.deepEqual(await Promise.all([a.done(), b.done(), c.done()]), ['done', 'done', 'done']);
  assert.equal(patient.active, 0);

  // Two hold their slots past the wait: the third is refused with 503 and Retry-After.
  const limiter = new WorkLimiter(2, 50);
  const [d, e, f] = [job(limiter), job(limiter), job(limiter)];
  await Promise.all([d.started, e.started]);
  const refused = await f.done().then(
    () => assert.fail('the third job ran, though both slots were held past its wait'),
    (error: unknown) => error as AppError,
  );
  assert.equal(refused.code, 'provider_unavailable');
  assert.equal(refused.status, 503);
  assert.equal(refused.headers['retry-after'], '1');
  d.release();
  e.release();
  await Promise.all([d.done(), e.done()]);
  assert.equal(limiter.active, 0);
});
