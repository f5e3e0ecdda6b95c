import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { vocabularyHash } from '../../scripts/near-words.ts';
import { PLANNER_LIMITS, PromptError, RulePlanner } from '../../src/edits/planner/rule-planner.ts';
import { NEAR_WORDS, NEAR_WORDS_VOCABULARY } from '../../src/edits/planner/near-words.ts';
import { DIRECTED, NOUNS, OPERATION_NOUNS, partOfSpeech } from '../../src/edits/planner/lexicon.ts';
import { OPERATIONS } from '../../src/edits/operations/registry.ts';
import { correctTypo, VOCABULARY } from '../../src/edits/planner/words.ts';
import { threadCpuMs } from '../helpers/cpu-time.ts';
import { hostilePrompts, PROMPT_LIMIT } from '../helpers/hostile-prompts.ts';
import { refusal as refuse } from '../helpers/planner.ts';

// As the server plans (regions located unless TESSERA_SEGMENTER=off), so the region reader is under the same bounds.
const planner = new RulePlanner({ regions: true });
// With a generative provider, clauses of content are read on to the end instead of refusing the prompt.
const withProvider = new RulePlanner({ regions: true, generative: true });

function answer(prompt: string, by = planner): string {
  try {
    return `planned ${by.planSync(prompt).operations.length}`;
  } catch (error) {
    if (error instanceof PromptError) return error.kind;
    throw error;
  }
}

describe('planning stays linear and cheap', () => {
  // A generous bound that catches a quadratic blow-up (which took over a second at 4,000
  // characters); the real figure, a few milliseconds, is measured by `npm run bench`.
  // Measured in CPU time, which other processes on the machine cannot stretch.
  test('every hostile prompt at the length limit is answered within 200 ms of CPU, with and without a generative provider', () => {
    for (const by of [planner, withProvider]) {
      for (const { name, prompt } of hostilePrompts()) {
        assert.equal(prompt.length, PROMPT_LIMIT, name);
        answer(prompt, by); // warm
        const started = threadCpuMs();
        answer(prompt, by);
        const elapsed = threadCpuMs() - started;
        assert.ok(elapsed < 200, `${name}: ${elapsed.toFixed(1)} ms`);
      }
    }
  });

  test('a word, a clause or a plan past its limit is refused at once, saying why', () => {
    assert.match(refusal(`rotate ${'9'.repeat(PLANNER_LIMITS.maxWordChars + 1)}`).message, /no edit has a word that long/);
    assert.match(refusal(`make it ${'very '.repeat(PLANNER_LIMITS.maxClauseWords)}bright`).message, /separate edits with commas/);
    assert.match(refusal(Array.from({ length: PLANNER_LIMITS.maxOperations + 1 }, () => 'rotate 90').join(', ')).message, /more than 30 edits/);
    assert.equal(answer(Array.from({ length: PLANNER_LIMITS.maxOperations }, () => 'rotate 90').join(', ')), `planned ${PLANNER_LIMITS.maxOperations}`);
    assert.match(refusal(Array.from({ length: PLANNER_LIMITS.maxClauses + 1 }, () => 'dark').join(' and ')).message, /more than 60 clauses/);
  });
});

describe('words', () => {
  test('typos of operation words are read when one word is closest', () => {
    assert.equal(correctTypo('brighness'), 'brightness');
    assert.equal(correctTypo('birghter'), 'brighter');
    assert.equal(correctTypo('contast'), 'contrast');
    assert.equal(correctTypo('saturaton'), 'saturation');
    // Real words near an operation word are words, not typos.
    for (const word of ['right', 'insert', 'write', 'light', 'order']) assert.equal(correctTypo(word), undefined, word);
    assert.deepEqual(new RulePlanner().planSync('rotate it to the right').operations.map((o) => o.op), ['rotate']);
  });

  test('of several words one slip away, the one the commonest slip makes; two as likely, none', () => {
    // A letter left out ("ligher": "lighter" over "higher", whose first letter differs; "wamer":
    // "warmer" over a letter typed for another), a doubled letter typed once ("biger").
    assert.equal(correctTypo('ligher'), 'lighter');
    assert.equal(correctTypo('wamer'), 'warmer');
    assert.equal(correctTypo('biger'), 'bigger');
    // How much, misspelt.
    assert.equal(correctTypo('slighty'), 'slightly');
    assert.deepEqual(new RulePlanner().planSync('make it slighty ligher').operations.map((o) => o.op), ['brightness']);
    // One slip of the same kind from two words of other meanings is no correction ("boqder": a
    // letter typed for another in "border" and in "bolder").
    assert.equal(correctTypo('boqder'), undefined);
  });

  test('the typo vocabulary is the word tables: a word given a meaning there is corrected to, with the part of speech of its table', () => {
    for (const word of [...Object.keys(NOUNS), ...Object.keys(DIRECTED), ...OPERATIONS.map((entry) => entry.name)].filter((w) => w.length >= 5 && !w.includes('_'))) {
      assert.ok(VOCABULARY.includes(word), word);
    }
    assert.equal(partOfSpeech('vignette'), 'noun');
    assert.ok(OPERATION_NOUNS.has('vignette'));
    assert.equal(partOfSpeech('bigger'), 'other');
    // Words of the tables the old hand list did not hold.
    assert.equal(correctTypo('luminosty'), 'luminosity');
    assert.equal(correctTypo('yelowness'), 'yellowness');
    assert.equal(correctTypo('pixelte'), 'pixelate');
    // Two words of one meaning ("sharp", "sharpen") do not make a typo between them ambiguous.
    assert.equal(correctTypo('sharpn'), 'sharpen');
  });

  test('a correction is not taken where it asks for what the words as written could not: an unknown noun is a thing to add, not a size', () => {
    assert.equal(correctTypo('bigegr'), 'bigger');
    assert.deepEqual(new RulePlanner().planSync('make it bigegr').operations.map((o) => o.op), ['resize']);
    for (const prompt of ['put a tigger in the corner', 'add a red tigger', 'insert a bigger tigger']) {
      assert.equal(refusal(prompt).reason, 'needs_model', prompt);
    }
    assert.deepEqual(new RulePlanner().planSync('add a vignete').operations.map((o) => o.op), ['vignette']);
  });

  test('src/edits/planner/near-words.ts is generated from the current vocabulary (npm run planner:near-words)', () => {
    assert.equal(NEAR_WORDS_VOCABULARY, vocabularyHash(), 'the vocabulary changed since the list was made');
    // English words near a typo target are never corrected to it: listed, or a target themselves.
    assert.ok(NEAR_WORDS.includes('fright'));
    for (const word of ['right', 'insert', 'fright']) assert.equal(correctTypo(word), undefined, word);
  });
});

const refusal = (prompt: string) => refuse(planner, prompt);

test('generative steps count toward the limit on operations too', () => {
  const generative = new RulePlanner({ generative: true });
  const many = Array.from({ length: PLANNER_LIMITS.maxOperations + 1 }, (_, i) => `remove the person number ${i}`).join(', ');
  assert.throws(() => generative.planSync(many), (error: Error) => error instanceof PromptError && /more than 30 edits/.test(error.message));
  assert.equal(generative.planSync('remove the person on the left').operations[0]!.op, 'generate');
});

test('generate steps past maxGenerateSteps refuse the prompt as a limit, naming the first step past it', () => {
  const capped = new RulePlanner({ generative: true, maxGenerateSteps: 2 });
  assert.deepEqual(
    capped.planSync('remove the man, brighten it, add a dog').operations.map((op) => op.op),
    ['generate', 'brightness', 'generate'],
  );
  assert.throws(
    () => capped.planSync('remove the man, brighten it, add a dog, sharpen it, remove the tree'),
    (error: Error) => error instanceof PromptError && error.reason === 'limit' && error.clause === 'remove the tree' && /more than 2 edits a generative model must paint/.test(error.message),
  );
});

test('with a provider, a fade of a part is its faded look or asked about, never a paid step; a fade to a colour is one', () => {
  const generative = new RulePlanner({ generative: true, regions: true });
  assert.deepEqual(generative.planSync('fade the background').operations, [{ op: 'contrast', factor: 0.741, region: 'background' }]);
  assert.throws(() => generative.planSync('fade out the background'), (error: Error) => error instanceof PromptError && error.reason === 'ambiguous');
  assert.deepEqual(generative.planSync('fade the background to white').operations, [{ op: 'generate', instruction: 'fade the background to white', region: 'background' }]);
});
