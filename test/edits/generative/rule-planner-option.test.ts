import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_INSTRUCTION_CHARS } from '../../../src/edits/operations/generative.ts';
import { PromptError, RulePlanner } from '../../../src/edits/planner/rule-planner.ts';

const refusal = (planner: RulePlanner, prompt: string): PromptError => {
  try {
    planner.planSync(prompt);
  } catch (error) {
    if (error instanceof PromptError) return error;
    throw error;
  }
  return assert.fail(`"${prompt}" was planned`);
};

describe('the rule planner with a generative provider configured', () => {
  const planner = new RulePlanner({ generative: true });

  test('a content clause becomes a generate step in its place, with the clause as written', () => {
    assert.deepEqual(planner.planSync('increase the contrast and remove the people in the background').operations, [
      { op: 'contrast', factor: 1.35 },
      { op: 'generate', instruction: 'remove the people in the background' },
    ]);
    assert.deepEqual(
      planner.planSync('increase the contrast, remove the person on the left and convert to webp').operations.map((o) => (o.op === 'generate' ? `generate(${o.instruction})` : o.op)),
      ['contrast', 'generate(remove the person on the left)', 'format'],
    );
    assert.deepEqual(planner.planSync('Replace the SKY with a sunset').operations, [{ op: 'generate', instruction: 'Replace the SKY with a sunset' }]);
    // Things worn, put on someone (a bare plural after "add" is no thing by itself: "add layers").
    for (const prompt of ['add earphones', 'put a tiara on my daughter', 'give the dog goggles']) {
      assert.deepEqual(planner.planSync(prompt).operations, [{ op: 'generate', instruction: prompt }], prompt);
    }
  });

  test('gibberish is still not understood, also beside a content clause', () => {
    assert.equal(refusal(planner, 'make it fabulous').kind, 'not_understood');
    const mixed = refusal(planner, 'remove the people in the background and asdf qwer');
    assert.equal(mixed.kind, 'not_understood');
    assert.equal(mixed.clause, 'asdf qwer');
  });

  test('keys struck at random are no thing to paint; names, brands, acronyms and typos are', () => {
    for (const prompt of ['remove the qzxv', 'add a wxqj', 'blur the vbnm', 'make the zxcv purple', 'swap the qwxz for a pbvk', 'replace the background with asdf', 'REMOVE THE QZXV', 'Remove The Qzxv Please', "remove the qzxv's hat", 'remove the qzxv bro']) {
      const error = refusal(planner, prompt);
      assert.equal(error.reason, 'not_understood', prompt);
      assert.match(error.message, /is no word|are no words/, prompt);
    }
    assert.equal(refusal(planner, 'increase the contrast and remove the qzxv').clause, 'remove the qzxv');
    for (const prompt of ['add a Godzilla monster', 'remove the lightsaber', 'remove the Instagram logo', 'remove it', 'remove Jessica', 'remove the adidas logo', 'remove the wtrmark', 'remove the KPMG logo', 'add a puppyyy']) {
      assert.deepEqual(planner.planSync(prompt).operations, [{ op: 'generate', instruction: prompt }], prompt);
    }
    // A look asked for is no thing put in.
    for (const prompt of ['add some drama', 'add a vibe']) assert.equal(refusal(planner, prompt).reason, 'not_understood', prompt);
  });

  test('clauses of content one after another are one generate step (one call) with all of them; a classic step or another region between keeps them apart', () => {
    assert.deepEqual(planner.planSync('remove the man on the left, and his hat').operations, [{ op: 'generate', instruction: 'remove the man on the left; his hat' }]);
    assert.deepEqual(planner.planSync('remove the sign; put a hat on the dog').operations, [{ op: 'generate', instruction: 'remove the sign; put a hat on the dog' }]);
    assert.deepEqual(
      planner.planSync('remove the sign, sharpen it, put a hat on the dog').operations.map((o) => o.op),
      ['generate', 'sharpen', 'generate'],
    );
    const regions = new RulePlanner({ generative: true, regions: true });
    assert.deepEqual(
      regions.planSync('change the background and remove the sign').operations.map((o) => `${o.op}:${(o as { region?: string }).region ?? ''}`),
      ['generate:background', 'generate:'],
    );
    // Each clause is read as its own before they are joined: its words as written ("but", "or"),
    // what it limits ("just"), and the fault before it, which a request limited to its own asks nothing of.
    assert.deepEqual(planner.planSync('remove the man, but keep his hat').operations, [{ op: 'generate', instruction: 'remove the man; but keep his hat' }]);
    assert.deepEqual(planner.planSync("it's too dark, remove the man, just remove his hat").operations, [{ op: 'generate', instruction: 'remove the man; just remove his hat' }]);
    // A content clause that also says a fault is asked for all the same, never taken for a fault
    // another generate step mends (it had been dropped).
    assert.deepEqual(planner.planSync('remove the man, too much yellow open his eyes').operations, [{ op: 'generate', instruction: 'remove the man; too much yellow open his eyes' }]);
    assert.deepEqual(
      regions.planSync('remove the lamp and the posters behind him').operations.map((o) => `${o.op}:${(o as { region?: string }).region ?? ''}`),
      ['generate:', 'generate:background'],
    );
    // Past the longest instruction a new step starts.
    const long = Array.from({ length: 12 }, (_, i) => `remove the ${'very '.repeat(15)}old sign number ${i}`).join(', ');
    const steps = planner.planSync(long).operations;
    assert.ok(steps.length > 1 && steps.every((o) => o.op === 'generate' && o.instruction.length <= MAX_INSTRUCTION_CHARS));
  });

  test('a clause asked about is asked about with the option; without it, a later clause that needs a model is the answer', () => {
    const asked = refusal(planner, 'crop the image and replace the background');
    assert.equal(asked.kind, 'not_understood');
    assert.equal(asked.clause, 'crop the image');
    const needsModel = refusal(new RulePlanner(), 'crop the image and replace the background');
    assert.equal(needsModel.kind, 'generative');
    assert.equal(needsModel.clause, 'replace the background');
    assert.equal(refusal(new RulePlanner(), 'crop the image and make it warmer').kind, 'not_understood');
  });

  test('without the option nothing changes: content clauses are refused as generative', () => {
    const error = refusal(new RulePlanner(), 'increase the contrast and remove the people in the background');
    assert.equal(error.kind, 'generative');
    assert.equal(error.clause, 'remove the people in the background');
  });
});
