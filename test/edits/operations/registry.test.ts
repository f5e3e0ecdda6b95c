import sharp from 'sharp';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { OPERATION_CATALOGUE, servedCatalogue } from '../../../src/edits/catalogue.ts';
import { CLASSIC_OPERATIONS, ENCODING_OPERATIONS, LOOKS, OPERATIONS, QUESTIONS, readingOf, STEPS, STRENGTHS } from '../../../src/edits/operations/registry.ts';
import { planProblems, planSchema } from '../../../src/edits/plan-schema.ts';
import { PromptError, RulePlanner } from '../../../src/edits/planner/rule-planner.ts';
import { renderEdits, renderingOf } from '../../../src/edits/render/index.ts';
import { redBlue } from '../../helpers/images.ts';

// The registry is the one declaration of each operation: everything else is read from it. These
// tests hold the derived tables to it, so that adding an entry is enough, and enough is checked.

const names = OPERATIONS.map((entry) => entry.name);
const paramsOf = (entry: (typeof OPERATIONS)[number]): Record<string, TSchema> => {
  const { op, ...params } = entry.schema.properties as Record<string, TSchema>;
  void op;
  return params;
};

describe('the operation registry', () => {
  test('declares each operation once, its schema named after it', () => {
    assert.equal(new Set(names).size, names.length, 'no name twice');
    for (const entry of OPERATIONS) {
      assert.match(entry.name, /^[a-z]+(?:_[a-z]+)*$/);
      assert.equal((entry.schema.properties.op as { const?: unknown }).const, entry.name);
      assert.equal((entry.stored.properties.op as { const?: unknown }).const, entry.name);
      for (const [key, schema] of Object.entries(paramsOf(entry))) assert.equal(entry.stored.properties[key as keyof typeof entry.stored.properties], schema, `${entry.name}.${key} is stored as planned`);
    }
  });

  test('gives every operation a catalogue entry with examples, describing only parameters it has', () => {
    for (const entry of OPERATIONS) {
      const { summary, parameters, examples, keywords } = entry.catalogue;
      assert.ok(summary.length > 10, `${entry.name} has a summary`);
      assert.ok(examples.length >= 2, `${entry.name} has at least two examples`);
      if (entry.group !== 'generative') assert.ok(keywords.length >= 1, `${entry.name} has keywords for suggestions`);
      for (const parameter of Object.keys(parameters)) assert.ok(parameter in paramsOf(entry), `${entry.name} has no parameter "${parameter}"`);
    }
  });

  test('gives every classic operation a renderer, and none to the generative step', () => {
    for (const entry of CLASSIC_OPERATIONS) {
      const rendering = renderingOf(entry.name);
      assert.ok(rendering, `${entry.name} has a renderer`);
      assert.equal(rendering === 'encoding', entry.encoding === true, `${entry.name} is rendered by encoding exactly when declared so`);
    }
    assert.equal(renderingOf('generate'), undefined);
    assert.equal(renderingOf('no_such_operation'), undefined);
  });

  test('renders every classic operation, as each of its catalogue examples plans it', async () => {
    const rules = new RulePlanner({ regions: true });
    const source = await redBlue();
    // Region steps get a mask of the left half (the segmenter's own masks are tested in test/edits/masks.test.ts).
    const { width, height } = await sharp(source).metadata();
    const alpha = Buffer.alloc(width * height);
    for (let y = 0; y < height; y++) alpha.fill(255, y * width, y * width + Math.floor(width / 2));
    const options = { maxPixels: 50_000_000, timeoutSeconds: 20, loadImage: async () => source, mask: async () => ({ width, height, alpha }) };
    for (const entry of CLASSIC_OPERATIONS) {
      for (const example of entry.catalogue.examples) {
        const result = await renderEdits(source, rules.planSync(example), options);
        assert.ok(result.width > 0 && result.height > 0 && result.data.length > 0, `"${example}" renders`);
      }
    }
  });

  test('declares readings whose defaults are values of the parameters they name, and questions about parameters it has', () => {
    for (const entry of OPERATIONS) {
      const params = paramsOf(entry);
      const reading = 'reading' in entry ? (entry.reading as { needs: readonly string[]; accepts: readonly string[]; defaults: object; kinds?: Record<string, object> } | undefined) : undefined;
      for (const defaults of reading ? [reading.defaults, ...Object.values(reading.kinds ?? {})] : []) {
        for (const [key, value] of Object.entries(defaults)) {
          assert.ok(key in params, `${entry.name}'s reading names no parameter "${key}"`);
          assert.ok(Value.Check(params[key]!, value), `${entry.name}.${key}: ${JSON.stringify(value)} is a value of it`);
        }
      }
      if (reading) assert.ok(!reading.needs.some((role) => reading.accepts.includes(role)), `${entry.name}: a role is needed or accepted, not both`);
      for (const question of 'questions' in entry ? (entry.questions ?? []) : []) {
        for (const slot of question.slot.split('|')) assert.ok(slot in params, `${entry.name}'s question asks for no parameter "${slot}"`);
      }
    }
  });

  test('names a strength parameter the schema has, with steps it accepts, growing from slight to strong', () => {
    for (const entry of OPERATIONS) {
      if (!('strength' in entry) || !entry.strength) continue;
      const { param, steps, neutral } = entry.strength;
      const schema = paramsOf(entry)[param];
      assert.ok(schema, `${entry.name} has the parameter ${param}`);
      for (const value of Object.values(steps)) assert.ok(Value.Check(schema, value), `${entry.name}.${param} = ${value} is valid`);
      const away = (value: number) => (!neutral ? value : neutral.scale === 'ratio' ? Math.log(value / neutral.value) : value - neutral.value);
      assert.ok(away(steps.slight) <= away(steps.normal) && away(steps.normal) <= away(steps.strong), `${entry.name} steps grow`);
      assert.ok(away(steps.slight) > 0, `${entry.name}: even a slight step does something`);
      if (neutral) assert.ok(Value.Check(schema, neutral.scale === 'ratio' ? 1 / steps.strong : -steps.strong), `${entry.name} accepts the strong step the other way`);
    }
  });
});

describe('what is derived from the registry', () => {
  test('the plan schema has one branch per operation, the generative one only with a provider', () => {
    const branches = (generative: boolean) => (planSchema({ generative }).properties.operations.items.anyOf as TSchema[]).map((branch) => (branch as { properties: { op: { const: string } } }).properties.op.const);
    assert.deepEqual(branches(true), names);
    assert.deepEqual(branches(false), names.filter((name) => name !== 'generate'));
  });

  test('the plan schema accepts the plan of every catalogue example, and the plan holds the example\'s operation', () => {
    for (const generative of [false, true]) {
      const rules = new RulePlanner({ generative, regions: true });
      for (const entry of generative ? OPERATIONS.filter((e) => e.group === 'generative') : CLASSIC_OPERATIONS) {
        for (const example of entry.catalogue.examples) {
          const plan = rules.planSync(example);
          assert.equal(planProblems(plan, { generative }), undefined, `"${example}" → ${JSON.stringify(plan)}`);
          assert.ok(plan.operations.some((op) => op.op === entry.name), `"${example}" plans ${entry.name}`);
        }
      }
    }
  });

  test('the catalogue lists the classic operations in the registry\'s order; the served one adds the generative step with a provider', () => {
    assert.deepEqual(OPERATION_CATALOGUE.map((entry) => entry.op), CLASSIC_OPERATIONS.map((entry) => entry.name));
    assert.deepEqual(servedCatalogue({ generative: false }).map((entry) => entry.op), CLASSIC_OPERATIONS.map((entry) => entry.name));
    assert.deepEqual(servedCatalogue({ generative: true }).map((entry) => entry.op), names);
    for (const entry of servedCatalogue({ generative: true })) assert.deepEqual(Object.keys(entry), ['op', 'group', 'summary', 'parameters', 'examples']);
  });

  test('the looks are the tone and filter operations, every one of them', () => {
    assert.deepEqual([...LOOKS].sort(), OPERATIONS.filter((e) => e.group === 'tone' || e.group === 'filter').map((e) => e.name).sort());
    for (const name of ['replace_color', 'distort', 'thicken_lines']) assert.ok(LOOKS.has(name), `${name} is a look`);
    for (const name of ['crop', 'text', 'format', 'generate']) assert.ok(!LOOKS.has(name), `${name} is not a look`);
  });

  test('the strengths are the adjustments that go both ways; the steps every operation with a strength', () => {
    assert.deepEqual(Object.keys(STRENGTHS).sort(), ['brightness', 'contrast', 'gamma', 'saturation', 'temperature']);
    assert.deepEqual(STRENGTHS.brightness, { key: 'factor', neutral: 1, ratio: true, steps: { slight: 1.1, normal: 1.25, strong: 1.6 } });
    assert.deepEqual(STRENGTHS.temperature, { key: 'amount', neutral: 0, ratio: false, steps: { slight: 0.3, normal: 0.6, strong: 1 } });
    assert.deepEqual(Object.keys(STEPS).sort(), OPERATIONS.filter((e) => 'strength' in e && e.strength).map((e) => e.name).sort());
    assert.deepEqual(STEPS.blur, { param: 'sigma', steps: { slight: 1, normal: 3, strong: 8 } });
  });

  test('the encoding operations are those declared so', () => {
    assert.deepEqual([...ENCODING_OPERATIONS].sort(), ['compress', 'format', 'keep_metadata', 'quality', 'strip_metadata']);
  });
});

describe('the planner reads the registry', () => {
  const rules = new RulePlanner();

  test('a look asked for twice in a row is done once, for every look', () => {
    for (const entry of CLASSIC_OPERATIONS.filter((e) => LOOKS.has(e.name))) {
      const example = entry.catalogue.examples[0]!;
      const once = rules.planSync(example).operations;
      if (once.length !== 1) continue; // an example of two operations is not one look said twice
      assert.deepEqual(rules.planSync(`${example}, ${example}`).operations, once, `"${example}" twice`);
    }
  });

  test('an unqualified adjustment takes its normal step, "slightly" its slight one', () => {
    for (const [name, prompt] of [['brightness', 'make it brighter'], ['blur', 'blur it'], ['temperature', 'make it warmer']] as const) {
      const { param, steps } = STEPS[name]!;
      const read = (text: string) => (rules.planSync(text).operations[0] as unknown as Record<string, number>)[param];
      assert.equal(read(prompt), steps.normal, prompt);
      assert.equal(read(`${prompt} slightly`), steps.slight, `${prompt} slightly`);
    }
  });

  test('a text takes the registry\'s defaults for what is not said, and those of the kind named', () => {
    const { defaults, kinds } = readingOf('text');
    assert.deepEqual(rules.planSync('add the caption "Hi there"').operations, [{ op: 'text', text: 'Hi there', ...defaults }]);
    assert.deepEqual(rules.planSync('add the title "Hi there"').operations, [{ op: 'text', text: 'Hi there', ...defaults, ...kinds!.title }]);
    assert.deepEqual(rules.planSync('add the watermark "Hi there"').operations, [{ op: 'text', text: 'Hi there', ...defaults, ...kinds!.watermark }]);
    // What is said is taken over the defaults.
    const [said] = rules.planSync('add the watermark "Hi there" at the top in red').operations;
    assert.deepEqual(said && said.op === 'text' && [said.position, said.color, said.opacity], ['top', { r: 255, g: 0, b: 0, alpha: 1 }, kinds!.watermark!.opacity]);
  });

  test('a resize and a crop take the registry\'s defaults, and its values by degree', () => {
    const resize = readingOf('resize');
    const scaled = (prompt: string) => {
      const [op] = rules.planSync(prompt).operations;
      return op && op.op === 'resize' ? [op.width?.value, op.fit] : undefined;
    };
    assert.deepEqual(scaled('make it smaller'), [resize.levels!.smaller!.normal, 'fill']);
    assert.deepEqual(scaled('make it slightly bigger'), [resize.levels!.larger!.slight, 'fill']);
    assert.deepEqual(scaled('resize to 1200 wide'), [1200, resize.defaults.fit]);
    assert.deepEqual(scaled('resize to 800x600'), [800, resize.kinds!.box!.fit]);
    const crop = readingOf('crop');
    const cropped = (prompt: string) => {
      const [op] = rules.planSync(prompt).operations;
      return op && op.op === 'crop' ? [op.width.value, op.gravity] : undefined;
    };
    assert.deepEqual(cropped('crop it closer'), [crop.levels!.closer!.normal, crop.defaults.gravity]);
    assert.deepEqual(cropped('zoom in a lot'), [100 / crop.levels!.zoom!.strong, crop.defaults.gravity]);
    assert.deepEqual(cropped('crop to 300x300'), [300, crop.defaults.gravity]);
  });

  test('an operation named without what it needs gets its own question, whose examples plan', () => {
    for (const question of QUESTIONS) {
      // One of its words alone ("change the crop") names the operation without the parameter.
      const asked = question.words.filter((word) => !question.requires || question.requires.includes(word)).find((word) => {
        try {
          rules.planSync(`change the ${word}`);
          return false;
        } catch (error) {
          return error instanceof PromptError && error.reason === 'missing_parameter' && error.message.endsWith(`${question.text}.`);
        }
      });
      assert.ok(asked, `${question.op}: "${question.text}" is asked`);
      for (const example of question.examples) {
        const prompt = typeof example === 'string' ? example : example[0];
        assert.ok(rules.planSync(prompt).operations.length > 0, `${question.op}: "${prompt}" plans`);
      }
    }
  });
});
