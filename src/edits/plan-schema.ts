import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { CLASSIC_OPERATIONS, OPERATIONS } from './operations/registry.ts';

/**
 * The plan as a JSON schema, with the ranges the executor accepts: what a language model is
 * asked to answer in (structured output), and what its answer must pass before anything runs.
 * Each operation's branch is its registry entry's schema.
 */

export { MAX_LINE_GROWTH } from './operations/filters.ts';
export { MAX_EXTRA_COLOR_PAIRS } from './operations/tone.ts';

/** The branches a plan may use: generative steps only when a provider is configured. */
function branchesOf(options: { generative: boolean }): TSchema[] {
  return (options.generative ? OPERATIONS : CLASSIC_OPERATIONS).map((entry) => entry.schema);
}

/** The plan schema; with generative steps only when a provider is configured. */
export function planSchema(options: { generative: boolean }) {
  return Type.Object({ operations: Type.Array(Type.Union(branchesOf(options)), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false });
}

/** Why a value is not a valid plan (naming the step and the parameter), or undefined when it is one. */
export function planProblems(value: unknown, options: { generative: boolean }): string | undefined {
  const schema = planSchema(options);
  if (Value.Check(schema, value)) return undefined;
  const operations = (value as { operations?: unknown } | null)?.operations;
  if (typeof value !== 'object' || value === null || !Array.isArray(operations)) return 'not an object {"operations": […]}';
  const branches = new Map((options.generative ? OPERATIONS : CLASSIC_OPERATIONS).map((entry): [unknown, TSchema] => [entry.name, entry.schema]));
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
