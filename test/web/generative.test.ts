import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeGenerateStep, generativeProviders } from '../../web/src/generative.ts';

describe('the console describes generative steps', () => {
  const generate = { op: 'generate', instruction: 'remove the people in the background', provider: 'openai', model: 'gpt-image-1' };

  test('a generate step shows its instruction and who paints it, marked generative', () => {
    const { op, ...parameters } = generate;
    assert.equal(op, 'generate');
    const step = describeGenerateStep(parameters);
    assert.equal(step.title, 'Generative edit');
    assert.equal(step.generative, true);
    assert.deepEqual(step.parameters, [
      { name: 'instruction', text: '“remove the people in the background”' },
      { name: 'by', text: 'openai · gpt-image-1' },
    ]);
  });

  test('lineage names the providers of a plan once each', () => {
    assert.deepEqual(generativeProviders([{ op: 'contrast', factor: 1.35 }, generate, generate]), ['openai · gpt-image-1']);
    assert.deepEqual(generativeProviders([{ op: 'invert' }]), []);
  });
});
