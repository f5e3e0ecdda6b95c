import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isEnglishWord, isWordLike, loadDictionary } from '../../src/edits/planner/dictionary.ts';

describe('the dictionary the planner tells things named in words by', () => {
  test('it holds the English words of SCOWL, lower case, and no proper names', () => {
    const words = loadDictionary();
    assert.ok(words.size > 100_000, `${words.size} words`);
    assert.equal(loadDictionary(), words, 'read once');
    for (const word of ['chair', 'lanterns', 'fireworks', 'colour', 'color', 'headphones']) assert.ok(isEnglishWord(word), word);
    for (const word of ['qzxv', 'asdf', 'godzilla', 'Chair']) assert.ok(!isEnglishWord(word), word);
  });

  test('compounds and one slip from a word are word-like; keyboard runs and strings of letters are not', () => {
    for (const word of ['lightsaber', 'rugblanket', 'blemishs', 'phto', 'chiar', 'womans']) assert.ok(isWordLike(word), word);
    for (const word of ['qzxv', 'asdf', 'sdfgsdfg', 'wxqj', 'vbnm', 'zxcvbnm', 'ab1', 'x'.repeat(40)]) assert.ok(!isWordLike(word), word);
  });

  test('looking a long unknown word up stays cheap: no slip is looked for past twelve letters', () => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) isWordLike(`qz${'x'.repeat(13)}${String.fromCharCode(97 + (i % 26))}${i}`.replace(/\d/g, 'q'));
    // A generous bound that only a blow-up (a slip search over every length) would cross.
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 2000);
  });
});
