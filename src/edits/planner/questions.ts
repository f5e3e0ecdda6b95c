import { OPERATION_CATALOGUE, type CatalogueEntry } from '../catalogue.ts';
import { QUESTIONS } from '../operations/registry.ts';
import { isFiller } from './clause.ts';

/**
 * A clause that names an operation but not what it needs ("crop the image", "rotate it",
 * "adjust the brightness"): instead of "not understood", the answer names the missing
 * parameter and gives two examples. The questions are the registry's (each operation's
 * `questions`); only clauses made of nothing but a question's words and neutral verbs are asked
 * about; anything else is left to the usual refusal.
 */

/** Verbs and words that ask for no operation of their own ("adjust the brightness"). */
const NEUTRAL = new Set(['change', 'adjust', 'edit', 'modify', 'alter', 'tweak', 'fix', 'correct', 'set', 'do', 'apply', 'perform', 'the', 'of', 'recrop', 'please']);

/** Words taken as fillers elsewhere that a question counts ("add a filter"). */
const COUNTED = new Set(QUESTIONS.flatMap((question) => question.fillers ?? []));

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
  const words = form.split(' ').filter((word) => word !== '' && (COUNTED.has(word) || !isFiller(word)) && !NEUTRAL.has(word));
  if (words.length === 0) return undefined;
  return QUESTIONS.find((question) => words.every((word) => question.words.includes(word)) && (!question.requires || words.some((word) => question.requires!.includes(word))))?.text;
}
