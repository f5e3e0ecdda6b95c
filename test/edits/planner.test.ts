import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { OPERATION_CATALOGUE } from '../../src/edits/catalogue.ts';
import type { EditOperation } from '../../src/edits/plan.ts';
import { PromptError, RulePlanner } from '../../src/edits/planner/rule-planner.ts';
import { refusal as refuse } from '../helpers/planner.ts';

const planner = new RulePlanner();
const corpus = JSON.parse(readFileSync(new URL('../fixtures/prompts.json', import.meta.url), 'utf8')) as {
  understood: { prompt: string; operations: EditOperation[] }[];
  refused: { prompt: string; kind: PromptError['kind']; reason: PromptError['reason']; clause: string }[];
};

const refusal = (prompt: string) => refuse(planner, prompt);

describe('rule planner', () => {
  test('the seed prompt', () => {
    assert.deepEqual(planner.planSync('rotate 90 degrees, make it black and white and add a red 10px border').operations, [
      { op: 'rotate', degrees: 90, background: { r: 0, g: 0, b: 0, alpha: 0 } },
      { op: 'grayscale' },
      { op: 'border', width: 10, color: { r: 255, g: 0, b: 0, alpha: 1 } },
    ]);
  });

  test(`phrasing corpus: ${corpus.understood.length} prompts, each with the plan it must produce`, () => {
    assert.ok(corpus.understood.length >= 200);
    const misses: string[] = [];
    for (const { prompt, operations } of corpus.understood) {
      try {
        assert.deepEqual(planner.planSync(prompt).operations, operations);
      } catch (error) {
        misses.push(`${prompt}: ${error instanceof PromptError ? error.message : 'planned differently'}`);
      }
    }
    const share = (corpus.understood.length - misses.length) / corpus.understood.length;
    console.log(`understood ${corpus.understood.length - misses.length}/${corpus.understood.length} (${(share * 100).toFixed(1)}%)`);
    assert.deepEqual(misses, []);
  });

  test('prompts it must refuse, with the right kind, reason and clause', () => {
    for (const { prompt, kind, reason, clause } of corpus.refused) {
      const error = refusal(prompt);
      assert.deepEqual({ kind: error.kind, reason: error.reason, clause: error.clause }, { kind, reason, clause }, prompt);
    }
  });

  test('a refusal quotes the clause it could not map and suggests operations', () => {
    const error = refusal('rotate 90 degrees and make it fabulous');
    assert.equal(error.clause, 'make it fabulous');
    assert.match(error.message, /"make it fabulous"/);
    assert.ok(error.suggestions.length > 0);
    const typo = refusal('roate it 90 degrees');
    assert.equal(typo.suggestions[0]!.op, 'rotate');
    assert.equal(refusal('make it look like a watercolour painting').kind, 'generative');
  });

  test('one clause it cannot map refuses the whole prompt (never a partial plan)', () => {
    assert.equal(refusal('rotate 90 degrees, sparkle it, then make it black and white').clause, 'sparkle it');
  });

  test('two texts at one place are asked about rather than drawn over each other', () => {
    assert.match(refusal('insert text Open insert text Closed').message, /written over each other at the bottom/);
    assert.match(refusal('add "A" at the top and "B" at the top').message, /at the top/);
    const texts = planner.planSync('add text Open add text Closed at the top').operations;
    assert.deepEqual(texts.map((op) => op.op === 'text' && [op.text, op.position]), [['Open', 'bottom'], ['Closed', 'top']]);
  });

  test('quoted text keeps its case and punctuation, file IDs their case', () => {
    const [text] = planner.planSync('add the caption "Hello, World. And Then" at the top').operations;
    assert.deepEqual(text && text.op === 'text' && [text.text, text.position], ['Hello, World. And Then', 'top']);
    const [mark] = planner.planSync('add file_01JCABCDEFGHJKMNPQRSTVWXYZ as a logo in the top right').operations;
    assert.deepEqual(mark && mark.op === 'watermark' && [mark.fileId, mark.position], ['file_01JCABCDEFGHJKMNPQRSTVWXYZ', 'top-right']);
  });

  test('an operation without what it needs is asked about, naming the missing parameter with two examples', () => {
    const asks: Array<[string, RegExp]> = [
      ['crop the image', /crop needs a size, an aspect ratio or a margin, e\.g\. "crop to 800x600" or "crop to 16:9"/],
      ['resize the photo', /resize needs a size or a direction, e\.g\. "resize to 1200 wide" or "make it half the size"/],
      ['rotate the image', /rotate needs an angle or a direction, e\.g\. "rotate 90 degrees clockwise" or "rotate left"/],
      ['adjust the brightness', /brightness needs a direction, e\.g\. "increase the brightness" or "make it 20% darker"/],
      ['add the text at the top', /text needs the words to write/],
    ];
    for (const [prompt, message] of asks) {
      const error = refusal(prompt);
      assert.equal(error.kind, 'not_understood', prompt);
      assert.match(error.message, message, prompt);
    }
  });

  test('a request about a region or an object is never planned as a whole-image edit', () => {
    // The background, the subject and the faces are regions an edit can be said of once they are located.
    for (const prompt of ['blur the background', 'remove the background', 'make her skin darker', 'remove the white background', 'make the boy black and white']) {
      const error = refusal(prompt);
      assert.deepEqual([error.kind, error.reason], ['generative', 'needs_region'], prompt);
      assert.match(error.message, /needs the (background|faces|subject) located, and region edits are off/, prompt);
    }
    // Other parts of a picture are found only by a model.
    for (const prompt of ['brighten the car wheels', 'color the sky blue', 'make her hair darker', 'change the background']) {
      const error = refusal(prompt);
      assert.deepEqual([error.kind, error.reason], ['generative', 'needs_model'], prompt);
      assert.match(error.message, /needs a selection or a generative image model/, prompt);
    }
    // A colour cast is a colour correction, not transparency; "lighter" is about light.
    assert.deepEqual(planner.planSync('remove yellow from the picture').operations.map((o) => o.op), ['color_balance']);
    assert.deepEqual(planner.planSync('make it lighter').operations.map((o) => o.op), ['brightness']);
    assert.deepEqual(planner.planSync('make the file lighter').operations.map((o) => o.op), ['compress']);
  });

  test('an empty or filler-only prompt asks for an edit', () => {
    assert.equal(refusal('please').kind, 'not_understood');
    assert.equal(refusal('   ').kind, 'not_understood');
  });
});

describe('operation catalogue', () => {
  // Every operation has an entry: the catalogue is read from the registry (test/edits/operations/).
  test('every example plans to its operation', () => {
    // As the server plans them: with regions located (TESSERA_SEGMENTER is not off).
    const planner = new RulePlanner({ regions: true });
    for (const entry of OPERATION_CATALOGUE) {
      assert.ok(entry.examples.length >= 2, `${entry.op} has at least two examples`);
      for (const example of entry.examples) {
        const ops = planner.planSync(example).operations.map((o) => o.op);
        assert.ok(ops.includes(entry.op), `"${example}" plans ${ops.join(', ')}, not ${entry.op}`);
      }
    }
  });
});
