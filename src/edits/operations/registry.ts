import type { Static, TSchema } from 'typebox';
import { FILTERS } from './filters.ts';
import { FORMAT } from './format.ts';
import { GENERATIVE } from './generative.ts';
import { GEOMETRY } from './geometry.ts';
import { questionText, type Group, type Level, type MissingQuestion, type Reading, type Region, type Strength } from './operation.ts';
import { OVERLAYS } from './overlay.ts';
import { REGION } from './region.ts';
import { TONE } from './tone.ts';

/**
 * Every image-edit operation, each declared once (in its group's file): its parameters, its
 * group, its strength, its catalogue entry. The plan's types (plan.ts), the plan schema
 * (plan-schema.ts), the catalogue (catalogue.ts) and the planner's tables below are read from
 * here; the renderer's tables (src/edits/render/) are typed from it, so an operation without a
 * renderer does not compile. The order is the catalogue's.
 */
export const OPERATIONS = [...GEOMETRY, ...TONE, ...FILTERS, ...OVERLAYS, ...FORMAT, ...REGION, ...GENERATIVE] as const;

type Entry = (typeof OPERATIONS)[number];
type StaticOf<T> = T extends TSchema ? Static<T> : never;

/** One step of a plan, as the executor receives it. */
export type EditOperation = StaticOf<Entry['stored']>;
/** One step as a planner may write it (without what the server fills in). */
export type PlannedOperation = StaticOf<Entry['schema']>;
/** The operations of one group. */
export type OperationOf<G extends Group> = Extract<Entry, { group: G }>['name'];
/** The classic operations: the catalogue's, done by the executor with sharp. */
export type OperationName = Exclude<Entry['name'], OperationOf<'generative'>>;
/** The operations read when the result is encoded (see OperationSpec.encoding). */
export type EncodingOperation = Extract<Entry, { encoding: true }>['name'];

export const CLASSIC_OPERATIONS = OPERATIONS.filter((entry) => entry.group !== 'generative');

export const ENCODING_OPERATIONS: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.encoding).map((entry) => entry.name));

/**
 * The operations that change how the whole picture looks, not what it shows nor its shape: the
 * tone and filter groups. The planner takes the same look asked twice as one request, and lets a
 * look be followed by the light it is for ("brighten it so it looks like a clear day").
 */
export const LOOKS: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.group === 'tone' || entry.group === 'filter').map((entry) => entry.name));

/** The fault each operation mends (OperationSpec.mends; its own name when no other mends it too). */
const MENDS: ReadonlyMap<string, string> = new Map(OPERATIONS.map((entry) => [entry.name, entry.mends ?? entry.name]));
export const mendsOf = (op: { op: string }): string => MENDS.get(op.op) ?? op.op;
/** The operation that undoes this one's work (OperationSpec.opposite), if any. */
const OPPOSITES: ReadonlyMap<string, string> = new Map(OPERATIONS.flatMap((entry) => (entry.opposite ? [[entry.name, entry.opposite] as const] : [])));
export const oppositeOf = (op: { op: string }): string | undefined => OPPOSITES.get(op.op);

/** The operations that, done twice, are as done once (OperationSpec.idempotent). */
const IDEMPOTENT: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.idempotent).map((entry) => entry.name));
/** Whether a step is the same as the one before it and done twice is done once: then it is said twice, done once. */
export const sameStepAgain = (before: EditOperation | undefined, op: EditOperation): EditOperation | undefined =>
  before !== undefined && IDEMPOTENT.has(op.op) && JSON.stringify(before) === JSON.stringify(op) ? op : undefined;

/** The operations that take a region, and which regions each takes (read from its `region` parameter). */
export const REGION_OPERATIONS: ReadonlyMap<string, readonly Region[]> = new Map(OPERATIONS.filter((entry) => entry.regions.length > 0).map((entry) => [entry.name, entry.regions]));

/** The region a step is confined to, when it is. */
export const regionOfStep = (op: { op: string; region?: unknown }): Region | undefined => (REGION_OPERATIONS.has(op.op) ? (op.region as Region | undefined) : undefined);

/**
 * The operations a `region` confines (a look done inside the region's mask, the rest untouched),
 * as against the region group's own, which name the region they work on.
 */
const CONFINABLE: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.regions.length > 0 && entry.group !== 'region' && entry.group !== 'generative').map((entry) => entry.name));

/** The region a classic step is confined to, when it is one. */
export const confinedRegionOf = (op: { op: string; region?: unknown }): Region | undefined => (CONFINABLE.has(op.op) ? (op.region as Region | undefined) : undefined);

/**
 * The operations a caller's mask can confine (the OpenAI form's `mask`): those whose `region` is
 * optional, i.e. done on the whole picture or inside a region alike (the looks a region confines,
 * and generative steps). The rest change its size or shape, or work on a region of their own.
 */
export const MASKABLE: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.regions.length > 0 && !((entry.schema.required ?? []) as string[]).includes('region')).map((entry) => entry.name));

/** Whether a classic step goes through a caller's mask (see MASKABLE): a look, not generative. */
export const isConfinable = (op: { op: string }): boolean => CONFINABLE.has(op.op);

const strengthOf = (entry: Entry): Strength | undefined => ('strength' in entry ? entry.strength : undefined);

/** The number of each operation that has one, and its value at each degree. */
export const STEPS: Partial<Record<EditOperation['op'], { param: string; steps: Readonly<Record<Level, number>> }>> = Object.fromEntries(
  OPERATIONS.flatMap((entry) => {
    const strength = strengthOf(entry);
    return strength ? [[entry.name, { param: strength.param, steps: strength.steps }]] : [];
  }),
);

/**
 * The adjustments that go both ways: their number (key), its value that changes nothing, and
 * whether the way back is a ratio (else an offset), with their steps.
 */
export const STRENGTHS: Partial<Record<EditOperation['op'], { key: string; neutral: number; ratio: boolean; steps: Readonly<Record<Level, number>> }>> = Object.fromEntries(
  OPERATIONS.flatMap((entry) => {
    const strength = strengthOf(entry);
    return strength?.neutral ? [[entry.name, { key: strength.param, neutral: strength.neutral.value, ratio: strength.neutral.scale === 'ratio', steps: strength.steps }]] : [];
  }),
);

/**
 * What the planner asks when a look is asked for without saying which ("add a filter", "give it
 * a nice effect"): no one operation's question, since any look would do.
 */
export const LOOK_QUESTION: MissingQuestion = {
  slot: 'op',
  subject: 'an effect',
  needs: 'a name',
  examples: ['add a sepia filter', 'add a vignette'],
  note: '(GET /v1/images/operations lists them)',
  words: ['filter', 'effect', 'look', 'version', 'new', 'different', 'nice', 'cool'],
  fillers: ['filter', 'effect', 'look', 'version'],
};

/** A question of the planner's, with its sentence. */
export interface Question extends MissingQuestion {
  op: string;
  text: string;
}

const questionsOf = (entry: Entry): readonly MissingQuestion[] => ('questions' in entry ? (entry.questions ?? []) : []);

/** Every question the planner may ask for a missing parameter: the looks' own, then each operation's, in the registry's order. */
export const QUESTIONS: readonly Question[] = [
  { op: 'look', ...LOOK_QUESTION, text: questionText('look', LOOK_QUESTION) },
  ...OPERATIONS.flatMap((entry) => questionsOf(entry).map((question) => ({ op: entry.name, ...question, text: questionText(entry.name, question) }))),
];

/** One planned step's parameters, without its name. */
export type ParamsOf<N extends PlannedOperation['op']> = Omit<Extract<PlannedOperation, { op: N }>, 'op'>;

const readingOfEntry = (entry: Entry): Reading | undefined => ('reading' in entry ? (entry.reading as Reading | undefined) : undefined);

/** How the planner reads an operation of several slots (its registry entry's `reading`). */
export function readingOf<N extends PlannedOperation['op']>(name: N): Reading<ParamsOf<N>> {
  const entry = OPERATIONS.find((candidate) => candidate.name === name);
  const reading = entry && readingOfEntry(entry);
  if (!reading) throw new Error(`the registry declares no reading of ${name}`);
  return reading as Reading<ParamsOf<N>>;
}
