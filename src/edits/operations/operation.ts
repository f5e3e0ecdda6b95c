import { Type, type Static, type TLiteral, type TObject, type TProperties } from 'typebox';

/**
 * How one operation is declared in the registry (registry.ts), and the value schemas its
 * parameters share. Declarations are data: this module and the group files import nothing but
 * TypeBox, so the planners, the catalogue route and the plan schema read them without loading
 * the renderer.
 */

/**
 * What an operation does to the picture. Tone and filter operations are its looks (see LOOKS);
 * region operations exist only for a region of it (the background removed, a region filled).
 */
export type Group = 'geometry' | 'tone' | 'filter' | 'overlay' | 'format' | 'region' | 'generative';

/** The degrees a prompt gives without a number: "slightly", unqualified, "strongly". */
export type Level = 'slight' | 'normal' | 'strong';

/** The one number that says how much an operation does, and its value at each degree. */
export interface Strength<Param extends string = string> {
  param: Param;
  steps: Readonly<Record<Level, number>>;
  /**
   * For an adjustment that goes both ways ("brighter" and "darker"): the value that changes
   * nothing, and whether the other way is its reciprocal (ratio: ÷1.25 for ×1.25) or its negative
   * (offset: -0.6 for 0.6).
   */
  neutral?: { value: number; scale: 'ratio' | 'offset' };
}

/** The operation for people: what GET /v1/images/operations serves, and what suggestions search. */
export interface CatalogueText {
  summary: string;
  /** Each parameter people can give, in words (not every parameter of the schema need be here). */
  parameters: Record<string, string>;
  /** Prompts that plan to this operation (each is planned in the tests). */
  examples: string[];
  /** Words that point at this operation, for suggestions. */
  keywords: string[];
}

/**
 * What the planner asks when a clause names this operation but not what it needs ("crop the
 * image", "rotate it"): the parameter it asks about, the words that name the operation without it,
 * and the question, said as "<subject> needs <needs>, e.g. <examples>[ <note>]" (see questionText).
 */
export interface MissingQuestion {
  /** The parameter (or parameters, joined by "|") the question asks for. */
  slot: string;
  /** How the question names the operation; the operation's name when absent. */
  subject?: string;
  /** What is missing, in words ("a size or a direction"). */
  needs: string;
  /** Two prompts that give it (quoted, unless they carry their own quotes), each with what it does when that is worth saying. */
  examples: readonly [Example, Example];
  /** Anything more worth saying, after the examples. */
  note?: string;
  /**
   * The words that, with nothing but neutral verbs and fillers around them, name the operation
   * without the parameter: "crop the image", "adjust the brightness".
   */
  words: readonly string[];
  /** Words of which the clause must hold one: position words alone ("add it at the top") are no text request. */
  requires?: readonly string[];
  /** Words taken as fillers elsewhere that here are the request ("add a filter"). */
  fillers?: readonly string[];
}
type Example = string | readonly [prompt: string, gloss: string];

/** The question's sentence, from its parts. Examples with quotes of their own are set apart by commas. */
export function questionText(name: string, question: MissingQuestion): string {
  const said = question.examples.map((example) => (typeof example === 'string' ? { prompt: example, gloss: '' } : { prompt: example[0], gloss: ` (${example[1]})` }));
  const quoted = said.some(({ prompt }) => prompt.includes('"'));
  const examples = said.map(({ prompt, gloss }) => (quoted ? prompt : `"${prompt}"`) + gloss).join(quoted ? ', or ' : ' or ');
  return `${question.subject ?? name} needs ${question.needs}, e.g. ${examples}${question.note ? ` ${question.note}` : ''}`;
}

/**
 * The kinds of thing a clause gives an operation, as the planner's reader finds them: its word
 * table (src/edits/planner/lexicon.ts) and tokenizer say which words and tokens are which.
 */
export type Role =
  | 'quoted' // text in quotes
  | 'file' // a stored file's ID
  | 'kind' // what an overlay is: a caption, a title, a watermark
  | 'position' // top, bottom-left, centre
  | 'color' // a colour name or value
  | 'opacity' // "at 50% opacity", "faint"
  | 'size' // "24px", "big": a size of the thing drawn, or of the picture ("800x600", "1200 wide", "1080p")
  | 'scale' // "50%", "2x": a share or a multiple of the picture
  | 'direction' // smaller or larger, in or out
  | 'degree' // slightly, unqualified, strongly
  | 'fit' // inside, cover, stretch, letterbox
  | 'share' // "the left half", "the top third": a part of the picture kept
  | 'closer'; // "closer", "tighter": in from every side

/**
 * How the planner reads an operation whose clause gives several things: which roles it needs (a
 * clause giving none of them names the operation without its parameter: see `questions`), which
 * it accepts besides, and what it takes for a parameter not said. Defaults that depend on a kind
 * of request ("a watermark" is half opaque in the bottom right; a size given as WxH fills the box)
 * are under `kinds`; values by degree ("slightly", unqualified, "strongly") of what a clause gives
 * without a number ("smaller", "closer") under `levels`.
 */
export interface Reading<P = Record<string, unknown>> {
  needs: readonly Role[];
  accepts: readonly Role[];
  defaults: Readonly<Partial<P>>;
  kinds?: Readonly<Record<string, Readonly<Partial<P>>>>;
  levels?: Readonly<Record<string, Readonly<Record<Level, number>>>>;
}

export interface OperationSpec<G extends Group, P extends TProperties, F extends TProperties, S extends string, E extends true | undefined> {
  group: G;
  /** What a planner (rules or a model) writes besides `op`. */
  params?: P;
  /** Written by the server once it runs the step (who painted it), never by a planner. */
  filledIn?: F;
  strength?: Strength<S>;
  /** Read when the result is encoded, wherever it stands in the plan: it shapes the output file, not the pixels. */
  encoding?: E;
  catalogue: CatalogueText;
  /** What the planner asks when a clause names the operation without a parameter it needs. */
  questions?: readonly MissingQuestion[];
  /** How the planner reads a clause that gives it several things (see Reading). */
  reading?: Reading<Static<TObject<P>>>;
  /**
   * The fault this operation mends, when other operations mend it too ("colour cast": a warmer or
   * cooler picture, a channel less, the white balance). A fault said and a request of any of them
   * in one prompt are one edit (the request's). Without it, the operation's own name.
   */
  mends?: string;
  /**
   * The operation that undoes what this one does (sharpen and blur, noise and denoise): asked
   * beside a fault that the other mends ("sharpen it, it's too sharp"), a prompt contradicts itself.
   */
  opposite?: string;
  /**
   * Done twice, the same as done once: the same step asked twice in a row ("cut him out and get rid
   * of the background") is planned once.
   */
  idempotent?: true;
}

type Properties<Name extends string, P extends TProperties> = { op: TLiteral<Name> } & P;

/** The regions of a picture that can be located (src/edits/masks/): behind the subject, the subject, the faces. */
export const REGIONS = ['background', 'subject', 'face'] as const;
export type Region = (typeof REGIONS)[number];

/** The catalogue's words for an operation's `region` parameter. */
const REGION_TEXT = 'optional: background, subject or face (the edit only there); absent: the whole picture';

/** Which regions an entry's `region` parameter takes (read from its schema), none when it has none. */
function regionsOf(params: TProperties): Region[] {
  const schema = params.region as { anyOf?: Array<{ const?: unknown }>; const?: unknown } | undefined;
  if (!schema) return [];
  const values = schema.anyOf ? schema.anyOf.map((branch) => branch.const) : [schema.const];
  return REGIONS.filter((region) => values.includes(region));
}

/**
 * One registry entry. `schema` is the step as a planner writes it (the plan schema's branch);
 * `stored` adds what the server fills in, and is what the `EditOperation` type is made from.
 */
export function operation<
  const Name extends string,
  G extends Group,
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  P extends TProperties = {},
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  F extends TProperties = {},
  S extends Extract<keyof P, string> = Extract<keyof P, string>,
  E extends true | undefined = undefined,
>(name: Name, spec: OperationSpec<G, P, F, S, E>) {
  const params = spec.params ?? ({} as P);
  const schema: TObject<Properties<Name, P>> = Type.Object({ op: Type.Literal(name), ...params }, { additionalProperties: false });
  const stored: TObject<Properties<Name, P & F>> = Type.Object({ op: Type.Literal(name), ...params, ...(spec.filledIn ?? ({} as F)) }, { additionalProperties: false });
  const regions = regionsOf(params);
  // An optional region is said in the catalogue the same way for every operation that takes one.
  const optionalRegion = regions.length > 0 && !((schema.required ?? []) as string[]).includes('region');
  const catalogue = optionalRegion ? { ...spec.catalogue, parameters: { ...spec.catalogue.parameters, region: REGION_TEXT } } : spec.catalogue;
  return { ...spec, catalogue, name, encoding: spec.encoding as E, schema, stored, regions };
}

// Values the parameters share.

const L = Type.Literal;
const channel = Type.Integer({ minimum: 0, maximum: 255 });
/** sRGB, 0–255 per channel; alpha 0–1. */
export const color = Type.Object({ r: channel, g: channel, b: channel, alpha: Type.Number({ minimum: 0, maximum: 1 }) }, { additionalProperties: false });
/** A length in pixels, or in percent of the image's current width (or height, for heights). */
export const length = Type.Object({ value: Type.Number({ minimum: 0, maximum: 100_000 }), unit: Type.Union([L('px'), L('%')]) }, { additionalProperties: false });
const positions = [L('top-left'), L('top'), L('top-right'), L('left'), L('center'), L('right'), L('bottom-left'), L('bottom'), L('bottom-right')] as const;
export const position = Type.Union([...positions]);
/** Where a crop keeps the image: a fixed position, or the most interesting part. */
export const gravity = Type.Union([...positions, L('attention'), L('entropy')]);
/** Width to height, e.g. [16, 9]; [1, 1] for square. */
export const ratio = Type.Tuple([Type.Number({ exclusiveMinimum: 0, maximum: 100 }), Type.Number({ exclusiveMinimum: 0, maximum: 100 })]);
/** A side in pixels. */
export const side = Type.Integer({ minimum: 1, maximum: 100_000 });
/** A multiplier: 1 leaves the image as it is. */
export const factor = Type.Number({ minimum: 0, maximum: 10 });
export const edges = { top: length, right: length, bottom: length, left: length };
export const outputFormat = Type.Union([L('png'), L('jpeg'), L('webp'), L('avif'), L('gif'), L('tiff')]);

/** `region`: the edit confined to one region (its soft mask); absent, the whole picture. */
export const inRegion = { region: Type.Optional(Type.Union([L('background'), L('subject'), L('face')])) };

// The same values in words, for the catalogue.
export const COLOR = 'a CSS colour name (red, navy, light blue), #hex or rgb(…)';
export const LENGTH = 'pixels (10px) or percent of the image (10%)';
export const POSITION = 'top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right';
