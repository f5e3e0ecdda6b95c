import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PlanStep } from '../../web/src/api.ts';
import { describeStep, generativeProviders } from '../../web/src/format.ts';

describe('the console describes generative steps', () => {
  const generate = { op: 'generate', instruction: 'remove the people in the background', provider: 'openai', model: 'gpt-image-1' } as unknown as PlanStep;

  test('a generate step shows its instruction and who paints it, marked generative', () => {
    const step = describeStep(generate, []);
    assert.equal(step.title, 'Generative edit');
    assert.equal(step.generative, true);
    assert.deepEqual(step.parameters, [
      { name: 'instruction', text: '“remove the people in the background”' },
      { name: 'by', text: 'openai · gpt-image-1' },
    ]);
    assert.equal(describeStep({ op: 'invert' } as PlanStep, []).generative, false);
  });

  test('lineage names the providers of a plan once each', () => {
    assert.deepEqual(generativeProviders([{ op: 'contrast', factor: 1.35 } as unknown as PlanStep, generate, generate]), ['openai · gpt-image-1']);
    assert.deepEqual(generativeProviders([{ op: 'invert' } as PlanStep]), []);
  });
});
