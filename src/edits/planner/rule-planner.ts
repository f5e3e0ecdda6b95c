import { OPERATION_CATALOGUE, type CatalogueEntry } from '../catalogue.ts';
import type { EditOperation, EditPlan, OperationName } from '../plan.ts';
import { Clause, isFiller } from './clause.ts';
import { effectRules } from './effect-rules.ts';
import { geometryRules } from './geometry-rules.ts';
import type { Rule } from './rule.ts';
import { canonical, protect, restore, splitAtoms, type Protected } from './text.ts';
import { toneRules } from './tone-rules.ts';

/** Turns a prompt into an edit plan. The built-in one is rules; a later one may ask a model. */
export interface Planner {
  readonly name: string;
  plan(prompt: string): Promise<EditPlan>;
}

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

const RULES: readonly Rule[] = [...effectRules, ...toneRules, ...geometryRules];

/** Pieces of a prompt joined back when they only make sense together ("800 wide and 600 tall"). */
const MAX_JOIN = 3;

// Edits that need a model that paints new pixels, recognised so the answer can say so.
const GENERATIVE =
  /\b(?:replace|swap|erase|inpaint|outpaint|generate|draw|paint|restore|colorize|colourise|colourize|upscale\s+with\s+ai|ai\s+upscale|super[\s-]?resolution|in\s+the\s+style\s+of|style\s+of|looks?\s+like|as\s+if|turn\s+(?:it\s+|this\s+)?into|cartoon|anime|painting|watercolou?r|oil\s+paint|sketch|drawing|comic|pixar|ghibli|van\s+gogh|picasso|cyberpunk|photorealistic|sky|sunset|sunrise|clouds?|person|people|man|woman|men|women|child|kids?|face|faces|smile|smiling|hat|glasses|beard|hair|eyes|teeth|skin|wrinkles|blemish(?:es)?|tattoo|dog|cat|car|tree|trees|snow|rain|moon|beach|mountains?|object|objects|background|foreground|subject|(?:remove|delete|take\s+out|get\s+rid\s+of)\s+(?:the\s+)?(?!background|noise|grain|metadata|exif|gps|border|transparen)\w+|add\s+(?:a|an|some)\s+(?!border|frame|vignette|tint|caption|watermark|logo|text|blur|title|label|margin|padding)\w+)\b/i;

export interface RulePlannerOptions {
  /**
   * A generative provider is configured: a clause only a generative model can do becomes a
   * `generate` step (with the clause as written) instead of refusing the prompt.
   */
  generative?: boolean;
}

export class RulePlanner implements Planner {
  readonly name = 'rules';
  private readonly generative: boolean;

  constructor(options: RulePlannerOptions = {}) {
    this.generative = options.generative ?? false;
  }

  async plan(prompt: string): Promise<EditPlan> {
    return this.planSync(prompt);
  }

  planSync(prompt: string): EditPlan {
    const p = protect(prompt);
    const atoms = splitAtoms(p.text);
    const operations: EditOperation[] = [];
    for (let i = 0; i < atoms.length; ) {
      let read: EditOperation[] | undefined;
      let used = 0;
      for (let n = Math.min(MAX_JOIN, atoms.length - i); n >= 1 && !read; n--) {
        read = readClause(atoms.slice(i, i + n).map((a) => a.text).join(' and '), p);
        used = n;
      }
      if (!read) {
        const error = failure(atoms[i]!.text, p);
        if (!this.generative || error.kind !== 'generative') throw error;
        operations.push({ op: 'generate', instruction: error.clause });
        i += 1;
        continue;
      }
      operations.push(...read);
      i += used;
    }
    if (operations.length === 0) {
      throw new PromptError('not_understood', prompt, 'The prompt asks for no edit. Describe what to change, e.g. "rotate 90 degrees and make it black and white".', defaultSuggestions());
    }
    return { operations };
  }
}

/** The operations a clause means, [] if it is only filler words, undefined if it is not understood. */
function readClause(text: string, p: Protected): EditOperation[] | undefined {
  const form = canonical(text);
  if (new Clause(form, p.quotes, p.files).leftovers().length === 0 && !/«/.test(form)) return [];
  for (const rule of RULES) {
    const clause = new Clause(form, p.quotes, p.files);
    const operations = rule.parse(clause);
    if (operations && clause.leftovers().length === 0) return operations;
  }
  return undefined;
}

function failure(atom: string, p: Protected): PromptError {
  const clause = restore(atom, p);
  const form = canonical(atom);
  const suggestions = suggest(form, p);
  const list = suggestions.map((s) => `${s.op} (e.g. "${s.example}")`).join(', ');
  if (GENERATIVE.test(form)) {
    return new PromptError(
      'generative',
      clause,
      `"${clause}" needs a generative image model, and none is configured on this server. Classic edits it can do include: ${list}.`,
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

/** Operations whose rule got part of the way, then those sharing (or nearly sharing) a word. */
function suggest(form: string, p: Protected): Suggestion[] {
  const scores = new Map<CatalogueEntry, number>();
  const words = form.split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !isFiller(w));
  for (const entry of OPERATION_CATALOGUE) {
    let score = 0;
    for (const word of words) {
      for (const keyword of entry.keywords) {
        if (word === keyword) score += 3;
        else if (word.length >= 4 && (keyword.startsWith(word) || word.startsWith(keyword))) score += 2;
        else if (word.length >= 4 && distance(word, keyword) <= (word.length >= 7 ? 2 : 1)) score += 2;
      }
    }
    const rule = RULES.find((r) => r.op === entry.op);
    if (rule && rule.parse(new Clause(form, p.quotes, p.files))) score += 4;
    if (score > 0) scores.set(entry, score);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return ranked.length > 0 ? ranked.map(([entry]) => ({ op: entry.op, example: entry.examples[0]! })) : defaultSuggestions();
}

function defaultSuggestions(): Suggestion[] {
  return (['resize', 'rotate', 'grayscale'] as const).map((op) => ({ op, example: OPERATION_CATALOGUE.find((e) => e.op === op)!.examples[0]! }));
}

/** Levenshtein distance, for typos ("roate", "greyscal"). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
