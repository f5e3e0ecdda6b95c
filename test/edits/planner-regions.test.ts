import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { EditOperation } from '../../src/edits/plan.ts';
import { planProblems } from '../../src/edits/plan-schema.ts';
import { PromptError, RulePlanner } from '../../src/edits/planner/rule-planner.ts';
import { refusal } from '../helpers/planner.ts';

/** Region edits in the rule planner (src/edits/planner/regions.ts), with regions located and without. */
const corpus = JSON.parse(readFileSync(new URL('../fixtures/prompts.json', import.meta.url), 'utf8')) as {
  understood: { prompt: string; operations: EditOperation[] }[];
  regions: {
    understood: { prompt: string; operations: EditOperation[] }[];
    refused: { prompt: string; kind: PromptError['kind']; reason: PromptError['reason']; clause: string }[];
  };
};
const withRegions = new RulePlanner({ regions: true });
const withoutRegions = new RulePlanner();

describe('region edits in the rule planner', () => {
  test(`${corpus.regions.understood.length} region prompts, each with the plan it must produce (and a valid one)`, () => {
    const misses: string[] = [];
    for (const { prompt, operations } of corpus.regions.understood) {
      try {
        const plan = withRegions.planSync(prompt);
        assert.deepEqual(plan.operations, operations);
        assert.equal(planProblems(plan, { generative: false }), undefined);
      } catch (error) {
        misses.push(`${prompt}: ${error instanceof PromptError ? error.message : 'planned differently'}`);
      }
    }
    assert.deepEqual(misses, []);
  });

  test('regions no model finds, one of several people, two regions related, vague or negated ones: refused, with the reason', () => {
    for (const { prompt, kind, reason, clause } of corpus.regions.refused) {
      const error = refusal(withRegions, prompt);
      assert.deepEqual({ kind: error.kind, reason: error.reason, clause: error.clause }, { kind, reason, clause }, prompt);
    }
  });

  test('whole-image prompts plan as before with regions located', () => {
    const misses = corpus.understood.filter(({ prompt, operations }) => JSON.stringify(withRegions.planSync(prompt).operations) !== JSON.stringify(operations)).map((entry) => entry.prompt);
    assert.deepEqual(misses, []);
  });

  test('with region edits off (TESSERA_SEGMENTER=off) a region edit stays refused: needs_region, naming the region and why', () => {
    for (const [prompt, region] of [['blur the background', 'the background'], ['make the background white', 'the background'], ['brighten her face', 'the faces'], ['crop to the dog', 'the subject']]) {
      const error = refusal(withoutRegions, prompt!);
      assert.deepEqual([error.kind, error.reason], ['generative', 'needs_region'], prompt);
      assert.match(error.message, new RegExp(`edits ${region}: that needs ${region} located, and region edits are off on this server \\(TESSERA_SEGMENTER=off\\)`), prompt);
    }
  });

  test('with regions on, a region edit not read for sure says the region is one the server locates, and to say one edit of it', () => {
    const error = refusal(withRegions, 'clear up the backdrop');
    assert.equal(error.reason, 'needs_region');
    assert.match(error.message, /^"clear up the backdrop" edits the background: this server locates the background, the subject and the faces, but could not read this as one edit of it for sure/);
    assert.doesNotMatch(error.message, /cannot do yet/);
  });

  test('with a generative provider, a content edit of the background or the faces carries its region (the mask goes to the provider)', () => {
    const planner = new RulePlanner({ regions: true, generative: true });
    assert.deepEqual(planner.planSync('replace the background with a forest').operations, [{ op: 'generate', instruction: 'replace the background with a forest', region: 'background' }]);
    // A hat on the dog may reach past the dog's outline: the whole picture goes.
    assert.deepEqual(planner.planSync('put a hat on the dog').operations, [{ op: 'generate', instruction: 'put a hat on the dog' }]);
  });

  test('requests run together without punctuation plan as with a comma between them, whichever comes first', () => {
    const regionEdits = ['blur the backdrop', 'darken the background', 'brighten her face', 'make the dog black and white', 'remove the background'];
    const pictureEdits = ['raise the contrast', 'boost the saturation', 'sharpen the photo', 'make the picture warmer', 'lighten the whole image'];
    for (const region of regionEdits) {
      for (const picture of pictureEdits) {
        for (const [first, second] of [[region, picture], [picture, region]]) {
          assert.deepEqual(withRegions.planSync(`${first} ${second}`).operations, withRegions.planSync(`${first}, ${second}`).operations, `${first} ${second}`);
        }
      }
    }
    // A later request that refers back to the region is of the region, as with a comma.
    assert.deepEqual(withRegions.planSync('darken the backdrop blur it').operations, withRegions.planSync('darken the backdrop, blur it').operations);
  });

  test('parts of the face are the face only for a smoothing of two or more of them; one alone, or another edit of them, needs a model', () => {
    for (const verb of ['airbrush', 'smooth', 'retouch', 'soften']) {
      assert.deepEqual(withRegions.planSync(`${verb} her forehead and cheeks`).operations, [{ op: 'smooth', region: 'face', strength: 0.6 }], verb);
      assert.equal(refusal(withRegions, `${verb} her forehead`).reason, 'needs_model', verb);
    }
    for (const prompt of ['brighten her forehead and cheeks', 'make his cheeks and chin red', 'blur her forehead and chin']) {
      assert.equal(refusal(withRegions, prompt).reason, 'needs_model', prompt);
    }
  });

  test('a word two slips from a subject word (a name, often) is not read as that subject; one slip is', () => {
    assert.equal(refusal(withRegions, 'zoom in on godzilla').reason, 'not_understood');
    assert.deepEqual(withRegions.planSync('zoom in on the gorila').operations, [{ op: 'crop_to_region', region: 'subject', margin: 0.1 }]);
  });
});
