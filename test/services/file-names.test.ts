import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveMimeType, sanitizeFileName } from '../../src/services/file-names.ts';

test('sanitizeFileName keeps the name, not the path or control characters', () => {
  assert.equal(sanitizeFileName('../../etc/passwd'), 'passwd');
  assert.equal(sanitizeFileName('C:\\x\\y.txt'), 'y.txt');
  assert.equal(sanitizeFileName('bad\u0000na\u0007me\u202e.txt'), 'badname.txt');
  for (const empty of ['', '.', '..', '   ', '/', undefined]) assert.equal(sanitizeFileName(empty), 'file', String(empty));
  assert.equal(sanitizeFileName('  résumé.pdf '), 'résumé.pdf');
  const long = sanitizeFileName(`${'a'.repeat(1000)}.jpeg`);
  assert.ok(Buffer.byteLength(long) <= 255);
  assert.ok(long.endsWith('.jpeg'));
  const wide = sanitizeFileName(`${'日'.repeat(200)}.png`);
  assert.ok(Buffer.byteLength(wide) <= 255);
  assert.ok(wide.endsWith('.png'));
  assert.doesNotMatch(wide, /\uFFFD/, 'cut on character boundaries');
});

test('resolveMimeType prefers a specific declared type, else guesses from the name', () => {
  assert.equal(resolveMimeType('image/png', 'x.bin'), 'image/png');
  assert.equal(resolveMimeType('Text/Plain; charset=utf-8', 'x'), 'text/plain');
  assert.equal(resolveMimeType('application/octet-stream', 'photo.JPG'), 'image/jpeg');
  assert.equal(resolveMimeType(undefined, 'a.webp'), 'image/webp');
  assert.equal(resolveMimeType('not a type', 'a.unknown'), 'application/octet-stream');
  assert.equal(resolveMimeType('text/html\r\nx-evil: 1', 'a'), 'application/octet-stream');
});
