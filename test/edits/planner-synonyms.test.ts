import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { synonymsModule, synonymTable } from '../../scripts/synonyms.ts';
import { DIRECTED, DOWN, LEMMAS, NOUNS, OPPOSITES, UP } from '../../src/edits/planner/lexicon.ts';
import { PromptError, RulePlanner } from '../../src/edits/planner/rule-planner.ts';
import { SYNONYM_VERBS, SYNONYMS } from '../../src/edits/planner/synonyms.ts';
import { correctTypo } from '../../src/edits/planner/words.ts';

const planner = new RulePlanner();
const ops = (prompt: string) => planner.planSync(prompt).operations;

test('src/edits/planner/synonyms.ts is what scripts/synonyms.ts makes of WordNet and the lexicon now (npm run planner:synonyms)', () => {
  const made = synonymTable();
  assert.equal(fs.readFileSync(new URL('../../src/edits/planner/synonyms.ts', import.meta.url), 'utf8'), synonymsModule(made));
  // What was left out on purpose stays out: a denied word, a word of two edits, a word one slip from another edit's word.
  for (const word of ['lour', 'compound', 'brilliancy', 'blear', 'hike']) assert.ok(made.left.has(word) && !SYNONYMS.has(word), word);
});

test('every synonym stands for a lexicon word of one edit, and is no lexicon word itself', () => {
  const read = (word: string) => LEMMAS[word] ?? word;
  for (const [synonym, word] of SYNONYMS) {
    const target = read(word);
    assert.ok(DIRECTED[target] ?? NOUNS[target] ?? OPPOSITES[target] ?? (UP.has(target) || DOWN.has(target) || undefined), `${synonym} -> ${word}`);
    assert.equal(LEMMAS[synonym] ?? DIRECTED[synonym] ?? NOUNS[synonym] ?? OPPOSITES[synonym], undefined, synonym);
  }
  for (const verb of SYNONYM_VERBS) assert.ok(SYNONYMS.has(verb), verb);
});

test('a synonym plans as the word it stands for, inflected too, and a misspelt one is corrected to it', () => {
  assert.deepEqual(ops('illuminate it'), ops('brighten it'));
  assert.deepEqual(ops('the contrast should be escalated'), ops('the contrast should be boosted'));
  assert.deepEqual(ops('less dimness'), ops('less darkness'));
  assert.equal(correctTypo('iluminate'), 'illuminate');
  assert.deepEqual(ops('iluminate it'), ops('brighten it'));
});

test('a degree verb\'s synonym with the picture alone as its object is no size: it is asked about (which quality), as "boost it" is', () => {
  for (const [synonym, word] of SYNONYMS) {
    if (word !== 'boost' && word !== 'diminish') continue;
    const asked = (error: unknown) => error instanceof PromptError && error.reason === 'missing_parameter';
    assert.throws(() => ops(`${synonym} it`), asked, synonym);
    assert.throws(() => ops(`${word} it`), asked, word);
  }
});
