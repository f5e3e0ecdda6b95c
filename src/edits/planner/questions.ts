import { OPERATION_CATALOGUE, type CatalogueEntry } from '../catalogue.ts';
import { isFiller } from './clause.ts';

/**
 * A clause that names an operation but not what it needs ("crop the image", "rotate it",
 * "adjust the brightness"): instead of "not understood", the answer names the missing
 * parameter and gives two examples. Only clauses made of nothing but the operation's own words
 * and neutral verbs are asked about; anything else is left to the usual refusal.
 */
interface Question {
  words: ReadonlySet<string>;
  message: string;
}

const NEUTRAL = new Set(['change', 'adjust', 'edit', 'modify', 'alter', 'tweak', 'fix', 'correct', 'set', 'do', 'apply', 'perform', 'the', 'of', 'recrop', 'please']);

const QUESTIONS: Question[] = [
  {
    words: new Set(['crop', 'cut', 'shorten', 'trim', 'frame']),
    message: 'crop needs a size, an aspect ratio or a margin, e.g. "crop to 800x600" or "crop to 16:9" (or "zoom in" for a centred crop)',
  },
  {
    words: new Set(['filter', 'effect', 'look', 'version', 'new', 'different', 'nice', 'cool']),
    message: 'an effect needs a name, e.g. "add a sepia filter" or "add a vignette" (GET /v1/images/operations lists them)',
  },
  {
    words: new Set(['zoom']),
    message: 'zoom needs a direction, e.g. "zoom in" (a centred crop) or "zoom out by 20%" (more canvas)',
  },
  {
    words: new Set(['resize', 'size', 'rescale', 'scale', 'dimensions', 'dimension', 'resolution']),
    message: 'resize needs a size or a direction, e.g. "resize to 1200 wide" or "make it half the size"',
  },
  {
    words: new Set(['rotate', 'rotation', 'spin', 'turn']),
    message: 'rotate needs an angle or a direction, e.g. "rotate 90 degrees clockwise" or "rotate left" ("straighten" levels a tilted picture)',
  },
  {
    words: new Set(['brightness', 'exposure', 'lighting', 'light', 'lightness']),
    message: 'brightness needs a direction, e.g. "increase the brightness" or "make it 20% darker"',
  },
  {
    words: new Set(['contrast']),
    message: 'contrast needs a direction, e.g. "increase the contrast" or "reduce the contrast by 30%"',
  },
  {
    words: new Set(['saturation', 'colors', 'color']),
    message: 'a colour change needs a direction or a colour, e.g. "make the colours more vivid" or "make it warmer" (or "change blue to yellow")',
  },
  {
    words: new Set(['sharpness', 'focus']),
    message: 'sharpness needs a direction, e.g. "sharpen it" or "blur it slightly"',
  },
  {
    words: new Set(['temperature', 'white', 'balance']),
    message: 'temperature needs a direction, e.g. "make it warmer" or "make it cooler"',
  },
  {
    words: new Set(['text', 'caption', 'title', 'words', 'add', 'insert', 'write', 'top', 'bottom', 'left', 'right', 'corner', 'under', 'below', 'above', 'underneath']),
    message: 'text needs the words to write, e.g. add the text "Summer 2026" at the top, or add the caption "Hello"',
  },
];
const TEXT_WORDS = new Set(['text', 'caption', 'title', 'words']);
/** Fillers elsewhere, but here the whole request ("add a filter"). */
const EFFECT_WORDS = new Set(['filter', 'effect', 'look', 'version']);

/** Words that only ask for an operation by its name ("apply the crop margin operation"). */
const NAMING = new Set(['apply', 'use', 'run', 'perform', 'do', 'operation', 'tool', 'option']);

/**
 * The operation a clause asks for by its catalogue name of several words, and nothing else ("apply
 * crop margin", "pad aspect"): read only as that operation, and asked about when the name alone
 * does not say its parameters. One-word names ("vignette", "posterize") are read by the readings.
 */
export function operationNamed(form: string): CatalogueEntry | undefined {
  const words = form.split(' ').filter((word) => word !== '' && !NAMING.has(word) && !isFiller(word));
  if (words.length < 2) return undefined;
  const name = words.join('_');
  // A region operation's name names its region too ("remove background"): the region reader
  // reads it, or refuses it for want of a segmenter, rather than asking for its parameters.
  return OPERATION_CATALOGUE.find((entry) => entry.op === name && entry.group !== 'region');
}

/** The question for a clause (canonical form), or undefined when it is not just an operation without its parameter. */
export function questionFor(form: string): string | undefined {
  const named = operationNamed(form);
  if (named) {
    const wanted = Object.keys(named.parameters);
    return `${named.op.split('_').join(' ')} needs ${wanted.length > 0 ? wanted.join(', ') : 'more than its name'}, e.g. "${named.examples[0]}"`;
  }
  const words = form.split(' ').filter((word) => word !== '' && (EFFECT_WORDS.has(word) || !isFiller(word)) && !NEUTRAL.has(word));
  if (words.length === 0) return undefined;
  for (const question of QUESTIONS) {
    if (!words.every((word) => question.words.has(word))) continue;
    // Position words alone are not a text request.
    if (question.words.has('text') && !words.some((word) => TEXT_WORDS.has(word))) continue;
    return question.message;
  }
  return undefined;
}
