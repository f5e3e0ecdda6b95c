import { OPERATION_CATALOGUE, type CatalogueEntry } from '../catalogue.ts';
import type { OperationName } from '../plan.ts';
import { Clause, isFiller } from './clause.ts';
import { namedColor } from './colors.ts';
import { questionFor } from './questions.ts';
import { isKnownWord, RULES } from './reading.ts';
import { canonical, restore, type Protected } from './text.ts';
import { distance, normalizeWords } from './words.ts';

/** Why a clause cannot be planned, said so the person can act on it: a question, a model's work, or the closest operations. */

export interface Suggestion {
  op: OperationName;
  example: string;
}

/** A prompt that cannot be planned: a clause nothing maps to, or one only a generative model could do. */
export class PromptError extends Error {
  constructor(
    readonly kind: 'not_understood' | 'generative',
    readonly clause: string,
    message: string,
    readonly suggestions: Suggestion[],
  ) {
    super(message);
  }
}

// Edits that need a model that paints new pixels, recognised so the answer can say so.
export const GENERATIVE =
  /\b(?:replace|swap|erase|inpaint|outpaint|generate|draw|paint|restore|colorize|colourise|colourize|upscale\s+with\s+ai|ai\s+upscale|super[\s-]?resolution|in\s+the\s+style\s+of|style\s+of|looks?\s+like|as\s+if|turn\s+(?:it\s+|this\s+)?into|cartoon|anime|painting|watercolou?r|oil\s+paint|comic|pixar|ghibli|van\s+gogh|picasso|cyberpunk|photorealistic|sky|sunset|sunrise|clouds?|person|people|man|woman|men|women|child|kids?|face|faces|smile|smiling|hat|glasses|beard|hair|eyes|teeth|skin|wrinkles|blemish(?:es)?|tattoo|dog|cat|car|tree|trees|snow|rain|moon|beach|mountains?|object|objects|background|foreground|subject|girls?|boys?|baby|babies|lady|ladies|guys?|heads?|necks?|arms?|legs?|hands?|chest|body|shirts?|t-?shirts?|dress|cap|collar|(?:change|edit|switch|swap|fix)\s+(?:the\s+|to\s+)?(?:words?|wording|text|writing|lettering|letters|numbers?|signs?)|(?:remove|delete|take\s+out|get\s+rid\s+of)\s+(?:the\s+)?(?!background|noise|grain|metadata|exif|gps|border|transparen)\w+|add\s+(?:a|an|some)\s+(?!border|frame|vignette|tint|caption|watermark|logo|text|blur|title|label|margin|padding)\w+)\b/i;

/** Whether a clause nothing reads needs a model (without the suggestions the refusal's message lists). */
export function needsModel(atom: string, p: Protected): boolean {
  const form = normalizeWords(canonical(atom), isKnownWord);
  return !questionFor(form) && namesContent(form, p);
}

/** A clause (normalised) about content or a part of the picture: a model's work. */
const namesContent = (form: string, p: Protected) => GENERATIVE.test(form) || aboutSomething(form, p);

/** The refusal of a clause nothing reads. */
export function failure(atom: string, p: Protected): PromptError {
  const clause = restore(atom, p);
  const form = normalizeWords(canonical(atom), isKnownWord);
  const suggestions = suggest(form, p);
  const question = questionFor(form);
  if (question) return new PromptError('not_understood', clause, `"${clause}" is missing something: ${question}.`, suggestions);
  const list = suggestions.map((s) => `${s.op} (e.g. "${s.example}")`).join(', ');
  // "the photo is warm", "is it too dark?": said of the picture, or asked, with no edit in it.
  if (/(?:^|\s)not:/.test(form)) {
    return new PromptError('not_understood', clause, `"${clause}" says what not to do or to keep, which no edit can be checked against: say the edit you want, e.g. ${list}.`, suggestions);
  }
  if (/^(?:statement|question):/.test(form)) {
    return new PromptError('not_understood', clause, `"${clause}" says how the picture is, or asks, but not what to change: say the edit, e.g. ${list}.`, suggestions);
  }
  if (namesContent(form, p)) {
    return new PromptError(
      'generative',
      clause,
      `"${clause}" changes part of the picture or its content: that needs a selection or a generative image model, and none is configured on this server. Edits of the whole image it can do include: ${list}.`,
      suggestions,
    );
  }
  return new PromptError(
    'not_understood',
    clause,
    `Could not understand "${clause}". Closest operations: ${list}. GET /v1/images/operations lists them all.`,
    suggestions,
  );
}

/**
 * An edit said of something in the picture: a rule reads the edit ("brighten", "sharpen") and
 * what is left are words naming a thing or a place, after "the", "her" and the like ("the car
 * wheels", "his eyes", "the right half"). "do something cool" names nothing: it stays not understood.
 */
function aboutSomething(form: string, p: Protected): boolean {
  const words = form.split(' ');
  const named = (word: string) => {
    const at = words.indexOf(word);
    return words.slice(Math.max(0, at - 3), at).some((w) => DETERMINERS.has(w));
  };
  const namesThings = (left: string[]) => left.length > 0 && left.length <= 4 && left.every((word) => /^[a-z]{3,}$/.test(word)) && left.some(named);
  // A colour said of a thing ("change the frog's colour to green", "the girl's eye colours to blue").
  if (words.some((word) => word === 'color' || word === 'colors' || namedColor(word) !== undefined)) {
    const left = words.filter((word) => !isFiller(word) && !COLOR_VERBS.has(word) && namedColor(word) === undefined);
    if (namesThings(left)) return true;
  }
  return RULES.some((rule) => {
    const clause = new Clause(form, p.quotes, p.files);
    const read = rule.parse(clause);
    return read !== undefined && read.length > 0 && namesThings(clause.leftovers());
  });
}
const COLOR_VERBS = new Set(['change', 'changed', 'turn', 'color', 'colors', 'paint', 'recolor', 'from']);
const DETERMINERS = new Set(['the', 'her', 'his', 'their', 'its', 'my', 'your', 'our']);

/** Operations whose rule got part of the way, then those sharing (or nearly sharing) a word. */
function suggest(form: string, p: Protected): Suggestion[] {
  const scores = new Map<CatalogueEntry, number>();
  const words = [...new Set(form.split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !isFiller(w)))];
  for (const entry of OPERATION_CATALOGUE) {
    let score = 0;
    for (const word of words) {
      for (const keyword of entry.keywords) {
        if (word === keyword) score += 3;
        else if (word.length >= 4 && (keyword.startsWith(word) || word.startsWith(keyword))) score += 2;
        else if (word.length >= 4 && near(word, keyword)) score += 2;
      }
    }
    const rule = RULES.find((r) => r.op === entry.op);
    if (rule && rule.parse(new Clause(form, p.quotes, p.files))) score += 4;
    if (score > 0) scores.set(entry, score);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return ranked.length > 0 ? ranked.map(([entry]) => ({ op: entry.op, example: entry.examples[0]! })) : defaultSuggestions();
}

export function defaultSuggestions(): Suggestion[] {
  return (['resize', 'rotate', 'grayscale'] as const).map((op) => ({ op, example: OPERATION_CATALOGUE.find((e) => e.op === op)!.examples[0]! }));
}

/** A typo's distance ("roate", "greyscal"): bounded, so a long word costs no more than a short one. */
function near(word: string, keyword: string): boolean {
  const bound = word.length >= 7 ? 2 : 1;
  return distance(word, keyword, bound) <= bound;
}
