import type { Static } from 'typebox';
import type { color, gravity, length, outputFormat, position } from './operations/operation.ts';
import type { EditOperation } from './operations/registry.ts';

/**
 * The edit plan: what a prompt means, as typed data. The planner produces it from words; the
 * executor performs it with sharp, operation by operation, in the order given. Nothing else
 * passes between them, so either side can be replaced (an LLM planner, a generative executor).
 * The operations and their parameters are declared in the registry (operations/registry.ts);
 * these types are read from it.
 */

export type { EditOperation, OperationName } from './operations/registry.ts';

/** sRGB, 0–255 per channel; alpha 0–1. */
export type Color = Static<typeof color>;
/** A length in pixels, or in percent of the image's current width (or height, for heights). */
export type Length = Static<typeof length>;
export type Position = Static<typeof position>;
/** Where a crop keeps the image: a fixed position, or the most interesting part. */
export type Gravity = Static<typeof gravity>;
export type OutputFormat = Static<typeof outputFormat>;

export type GenerateOperation = Extract<EditOperation, { op: 'generate' }>;

export interface EditPlan {
  operations: EditOperation[];
}
