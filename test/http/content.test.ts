import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentDisposition, parseRange } from '../../src/http/content.ts';

test('parseRange', () => {
  assert.deepEqual(parseRange(undefined, 10), { kind: 'full' });
  assert.deepEqual(parseRange('bytes=0-9', 10), { kind: 'partial', range: { start: 0, end: 9 } });
  assert.deepEqual(parseRange('bytes=5-', 10), { kind: 'partial', range: { start: 5, end: 9 } });
  assert.deepEqual(parseRange('bytes=-3', 10), { kind: 'partial', range: { start: 7, end: 9 } });
  assert.deepEqual(parseRange('bytes=-30', 10), { kind: 'partial', range: { start: 0, end: 9 } });
  assert.deepEqual(parseRange('bytes=2-100', 10), { kind: 'partial', range: { start: 2, end: 9 } });
  assert.deepEqual(parseRange('bytes=100-', 10), { kind: 'unsatisfiable' });
  assert.deepEqual(parseRange('bytes=0-', 0), { kind: 'unsatisfiable' });
  for (const ignored of ['bytes=0-1,3-4', 'items=0-1', 'bytes=5-2', 'bytes=-', 'nonsense']) assert.deepEqual(parseRange(ignored, 10), { kind: 'full' }, ignored);
});

test('contentDisposition is printable ASCII and carries the exact UTF-8 name', () => {
  for (const name of ['résumé ü 日本.png', 'quote".png', 'back\\slash.png', 'new\nline.png', '100%.png', "it's (1).png"]) {
    const header = contentDisposition(name, 'image/png', false);
    assert.match(header, /^inline; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]+$/, name);
    assert.doesNotMatch(header.split(';')[1]!, /["\\\n]"/);
    assert.equal(decodeURIComponent(header.split("UTF-8''")[1]!), name);
  }
  assert.match(contentDisposition('page.html', 'text/html', false), /^attachment;/);
  assert.match(contentDisposition('logo.svg', 'image/svg+xml', false), /^attachment;/, 'SVG can carry script');
  assert.match(contentDisposition('a.png', 'image/png', true), /^attachment;/);
});
