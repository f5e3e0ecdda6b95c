import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { EditOperation } from './plan.ts';

/**
 * The plan as a JSON schema, with the ranges the executor accepts: what a language model is
 * asked to answer in (structured output), and what its answer must pass before anything runs.
 * The compile-time checks at the bottom keep it equal to the plan's types in plan.ts.
 */

const L = Type.Literal;
const color = Type.Object(
  { r: Type.Integer({ minimum: 0, maximum: 255 }), g: Type.Integer({ minimum: 0, maximum: 255 }), b: Type.Integer({ minimum: 0, maximum: 255 }), alpha: Type.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false },
);
const length = Type.Object({ value: Type.Number({ minimum: 0, maximum: 100_000 }), unit: Type.Union([L('px'), L('%')]) }, { additionalProperties: false });
const positions = [L('top-left'), L('top'), L('top-right'), L('left'), L('center'), L('right'), L('bottom-left'), L('bottom'), L('bottom-right')] as const;
const position = Type.Union([...positions]);
const gravity = Type.Union([...positions, L('attention'), L('entropy')]);
const ratio = Type.Tuple([Type.Number({ exclusiveMinimum: 0, maximum: 100 }), Type.Number({ exclusiveMinimum: 0, maximum: 100 })]);
const side = Type.Integer({ minimum: 1, maximum: 100_000 });
const factor = Type.Number({ minimum: 0, maximum: 10 });
const edges = { top: length, right: length, bottom: length, left: length };
/** Pixels a thicken_lines grows each line by on each side: past this it is a blot, not a line. */
export const MAX_LINE_GROWTH = 20;
/** Pairs a replace_color does beyond its first: a palette swap, not a per-pixel lookup table. */
export const MAX_EXTRA_COLOR_PAIRS = 7;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
function op<const Name extends string, P extends Record<string, TSchema> = {}>(name: Name, properties: P = {} as P) {
  return Type.Object({ op: Type.Literal(name), ...properties }, { additionalProperties: false });
}

const classic = [
  op('resize', { width: Type.Optional(length), height: Type.Optional(length), fit: Type.Union([L('inside'), L('cover'), L('fill'), L('contain')]), background: Type.Optional(color) }),
  op('thumbnail', { size: side }),
  op('crop', { width: length, height: length, gravity }),
  op('crop_aspect', { ratio, gravity }),
  op('crop_margin', edges),
  op('rotate', { degrees: Type.Number({ minimum: -360, maximum: 360 }), background: color }),
  op('straighten', { degrees: Type.Optional(Type.Number({ minimum: -45, maximum: 45 })) }),
  op('flip'),
  op('mirror'),
  op('trim', { threshold: Type.Number({ minimum: 0, maximum: 255 }) }),
  op('pad', { ...edges, background: color }),
  op('pad_to', { width: side, height: side, background: color }),
  op('pad_aspect', { ratio, background: color }),
  op('border', { width: Type.Integer({ minimum: 1, maximum: 10_000 }), color }),
  op('round_corners', { radius: length }),
  op('circle'),
  op('grayscale'),
  op('sepia'),
  op('invert'),
  op('brightness', { factor }),
  op('contrast', { factor }),
  op('saturation', { factor }),
  op('hue', { degrees: Type.Number({ minimum: -360, maximum: 360 }) }),
  op('temperature', { amount: Type.Number({ minimum: -1, maximum: 1 }) }),
  op('color_balance', { red: Type.Number({ minimum: 0, maximum: 4 }), green: Type.Number({ minimum: 0, maximum: 4 }), blue: Type.Number({ minimum: 0, maximum: 4 }) }),
  op('replace_color', {
    from: color,
    to: color,
    tolerance: Type.Number({ minimum: 1, maximum: 180 }),
    also: Type.Optional(Type.Array(Type.Object({ from: color, to: color }, { additionalProperties: false }), { maxItems: MAX_EXTRA_COLOR_PAIRS })),
  }),
  op('gamma', { value: Type.Number({ minimum: 0.1, maximum: 10 }) }),
  op('normalize'),
  op('auto_white_balance'),
  op('tint', { color }),
  op('duotone', { shadow: color, highlight: color }),
  op('threshold', { level: Type.Integer({ minimum: 0, maximum: 255 }) }),
  op('posterize', { levels: Type.Integer({ minimum: 2, maximum: 32 }) }),
  op('blur', { sigma: Type.Number({ minimum: 0.3, maximum: 1000 }) }),
  op('sharpen', { sigma: Type.Number({ minimum: 0.01, maximum: 10 }) }),
  op('pixelate', { size: Type.Integer({ minimum: 2, maximum: 1000 }) }),
  op('denoise', { size: Type.Integer({ minimum: 3, maximum: 15, multipleOf: 1 }) }),
  op('dehaze', { amount: Type.Number({ minimum: 0.1, maximum: 1 }) }),
  op('vignette', { strength: Type.Number({ minimum: 0, maximum: 1 }) }),
  op('emboss'),
  op('thicken_lines', { width: Type.Integer({ minimum: 1, maximum: MAX_LINE_GROWTH }), lines: Type.Union([L('dark'), L('light')]) }),
  op('edges'),
  op('sketch'),
  op('noise', { amount: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) }),
  op('glow', { strength: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) }),
  op('distort', { amount: Type.Number({ minimum: 0, maximum: 1 }) }),
  op('text', { text: Type.String({ minLength: 1, maxLength: 500 }), position, color, size: length, opacity: Type.Number({ minimum: 0, maximum: 1 }) }),
  op('watermark', { fileId: Type.String({ pattern: '^file_[0-9A-Z]{26}$' }), position, opacity: Type.Number({ minimum: 0, maximum: 1 }), scale: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) }),
  op('format', { format: Type.Union([L('png'), L('jpeg'), L('webp'), L('avif'), L('gif'), L('tiff')]) }),
  op('quality', { quality: Type.Integer({ minimum: 1, maximum: 100 }) }),
  op('compress'),
  op('strip_metadata'),
  op('keep_metadata'),
  op('flatten', { background: color }),
  op('transparent_color', { color: Type.Optional(color), tolerance: Type.Number({ minimum: 0, maximum: 255 }) }),
] as const;

/** A generative step as a planner may write it: the instruction only (who paints it is ours to say). */
const generate = op('generate', { instruction: Type.String({ minLength: 1, maxLength: 1000 }) });

/** The plan schema; with generative steps only when a provider is configured. */
export function planSchema(options: { generative: boolean }) {
  const operations = options.generative ? [...classic, generate] : [...classic];
  return Type.Object({ operations: Type.Array(Type.Union(operations), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false });
}

/** Why a value is not a valid plan (naming the step and the parameter), or undefined when it is one. */
export function planProblems(value: unknown, options: { generative: boolean }): string | undefined {
  const schema = planSchema(options);
  if (Value.Check(schema, value)) return undefined;
  const operations = (value as { operations?: unknown } | null)?.operations;
  if (typeof value !== 'object' || value === null || !Array.isArray(operations)) return 'not an object {"operations": […]}';
  const branches = new Map<unknown, TSchema>((options.generative ? [...classic, generate] : classic).map((branch) => [branch.properties.op.const, branch]));
  for (const [index, step] of operations.entries()) {
    const name = (step as { op?: unknown } | null)?.op;
    const branch = branches.get(name);
    if (!branch) return `step ${index + 1}: unknown operation ${JSON.stringify(name)}`;
    const first = [...Value.Errors(branch, step)][0];
    if (first) return `step ${index + 1} (${String(name)}): ${(first as { instancePath?: string }).instancePath || '/'} ${first.message}`;
  }
  const first = [...Value.Errors(schema, value)][0];
  return first ? `${(first as { instancePath?: string }).instancePath || '/'} ${first.message}` : 'not a plan';
}

// The schema and the types in plan.ts describe the same operations (both ways).
type SchemaOperation = Static<typeof classic[number]> | Static<typeof generate>;
type PlannedOperation = EditOperation extends infer O ? (O extends { op: 'generate' } ? Omit<O, 'provider' | 'model'> : O) : never;
const schemaFitsTypes = (o: SchemaOperation): PlannedOperation => o;
const typesFitSchema = (o: PlannedOperation): SchemaOperation => o;
void schemaFitsTypes;
void typesFitSchema;
