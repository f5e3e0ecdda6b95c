import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isId, newId } from '../src/ids.ts';

test('ids are prefixed Crockford ULIDs that sort by creation', () => {
  const id = newId('file');
  assert.match(id, /^file_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.ok(isId('file', id));
  assert.ok(!isId('spc', id));
  assert.ok(!isId('file', 'file_short'));
  const ids = Array.from({ length: 10_000 }, () => newId('spc'));
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
  const t = Date.now() + 10_000;
  const early = newId('key', t);
  const later = newId('key', t + 1000);
  assert.ok(later > early, 'a later millisecond sorts after');
  assert.equal(later.slice(4, 14) > early.slice(4, 14), true, 'the time part carries the order');
  assert.ok(newId('key', t) > later, 'a clock that steps back never makes an id sort earlier');
});
