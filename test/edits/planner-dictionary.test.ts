import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isEnglishWord, looksLikeMash, loadDictionary } from '../../src/edits/planner/dictionary.ts';

describe('the dictionary the planner tells words from keys struck at random by', () => {
  test('it holds the English words of SCOWL, lower case, and no proper names', () => {
    const words = loadDictionary();
    assert.ok(words.size > 100_000, `${words.size} words`);
    assert.equal(loadDictionary(), words, 'read once');
    for (const word of ['chair', 'lanterns', 'fireworks', 'colour', 'color', 'headphones', 'tree', 'rhythm']) assert.ok(isEnglishWord(word), word);
    for (const word of ['qzxv', 'asdf', 'godzilla', 'jessica', 'Chair']) assert.ok(!isEnglishWord(word), word);
  });

  test('keyboard mash: no vowel, a hand sliding along a row, a key held', () => {
    for (const word of ['qzxv', 'sdlk', 'wxqj', 'asdf', 'sdfgsdfg', 'qwert', 'poiu', 'zxcv', 'vbnm', 'hjkl', 'asdkjh', 'bzzz', 'zzzz', 'jkjkjk', 'grrr']) assert.ok(looksLikeMash(word), word);
  });

  test('words, names, brands and typos are not mash, nor are abbreviations under four letters', () => {
    for (const word of ['tree', 'type', 'were', 'rhythm', 'pretty', 'jessica', 'priya', 'adidas', 'toyota', 'quokka', 'godzilla', 'wtrmark', 'phto', 'blemishs', 'lightsaber', 'ppl', 'bff', 'atm', 'tv', 'x7q9', 'peter', 'terry', 'marty', 'sasha', 'anna', 'coco', 'ballloon', 'puppyyy']) assert.ok(!looksLikeMash(word), word);
  });
});
