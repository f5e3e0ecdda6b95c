import type { EditOperation, EditPlan } from '../plan.ts';
import { LOOKS, regionOfStep, STRENGTHS } from '../operations/registry.ts';
import { isLightWord } from './adjustment-rules.ts';
import { readClause, readForm, isKnownWord } from './reading.ts';
import { defaultSuggestions, failure, GENERATIVE, needsModel, PromptError } from './refusal.ts';
import { asksForMore, canonical, canonicalClause, isNoRequest, protect, restore, splitAtoms, splitRunTogether, type Atom, type Protected } from './text.ts';
import { generativeRegion, readRegionEdit, regionStepsFirst, wholeFromParts } from './regions.ts';
import { coverWhole, editOfOne, type Part } from './targets.ts';
import { normalizeWords } from './words.ts';

export { PromptError, REFUSAL_REASONS, type RefusalReason, type Suggestion } from './refusal.ts';

/** Turns a prompt into an edit plan. The built-in one is rules; a later one may ask a model. */
export interface Planner {
  readonly name: string;
  plan(prompt: string): Promise<EditPlan>;
}

/** Pieces of a prompt joined back when they only make sense together ("800 wide and 600 tall"). */
const MAX_JOIN = 3;

/**
 * Bounds that keep planning linear and cheap whatever the prompt holds: no edit needs a word
 * this long or a clause this long, and no plan this many operations or clauses. Past them the prompt is
 * refused at once, before any pattern runs over it.
 */
export const PLANNER_LIMITS = { maxWordChars: 40, maxClauseWords: 40, maxOperations: 30, maxClauses: 60 } as const;

export interface RulePlannerOptions {
  /**
   * A generative provider is configured: a clause only a generative model can do becomes a
   * `generate` step (with the clause as written) instead of refusing the prompt.
   */
  generative?: boolean;
  /** Regions can be located (TESSERA_SEGMENTER is not off): "blur the background" is planned (regions.ts), not refused. */
  regions?: boolean;
}

export class RulePlanner implements Planner {
  readonly name = 'rules';
  private readonly generative: boolean;
  private readonly regions: boolean;

  constructor(options: RulePlannerOptions = {}) {
    this.generative = options.generative ?? false;
    this.regions = options.regions ?? false;
  }

  async plan(prompt: string): Promise<EditPlan> {
    return this.planSync(prompt);
  }

  planSync(prompt: string): EditPlan {
    const p = protect(prompt);
    const atoms = splitAtoms(p.text);
    // Each clause is read with its neighbours: past this many, planning would take long for no
    // real request ("dark and dark and dark …").
    if (atoms.length > PLANNER_LIMITS.maxClauses) {
      throw new PromptError('limit', prompt.slice(0, 80), `The prompt has more than ${PLANNER_LIMITS.maxClauses} clauses; split it into several requests.`, []);
    }
    const operations: EditOperation[] = [];
    // Each clause is read once, however many readings try it.
    const readings = new Map<string, EditOperation[] | undefined>();
    const readOnce = (text: string) => {
      // The look an edit is for may run past an "and" ("bringing out the highlights and the shadows").
      if (!readings.has(text)) readings.set(text, readClause(text, p) ?? readBeforeOutcome(text, p) ?? (this.regions ? readRegionEdit(text, p) : undefined));
      return readings.get(text);
    };
    for (let i = 0; i < atoms.length; ) {
      assertReadable(atoms[i]!.text, p);
      // A clause that reads alone, followed by one that reads alone as another operation which
      // joining would not merge into this one ("rotate 90, add a border"; "warmer and slightly
      // brighter": the degree is said of one), is read alone. Otherwise (the next asks for the
      // same operation, "lighten and brighten", or does not read alone, "zoom in and crop",
      // "… in the middle, size 48px") the longest reading of clauses together wins.
      let read = readOnce(atoms[i]!.text);
      let used = 1;
      const next = atoms[i + 1] && readOnce(atoms[i + 1]!.text);
      const alone = read !== undefined && next !== undefined && !sameOperations(read, next) && !mergesInto(readOnce(`${atoms[i]!.text} and ${atoms[i + 1]!.text}`), read, next);
      if (!alone) {
        for (let n = Math.min(MAX_JOIN, atoms.length - i); n >= 2; n--) {
          const joined = readOnce(atoms.slice(i, i + n).map((a) => a.text).join(' and '));
          if (joined) {
            [read, used] = [joined, n];
            break;
          }
        }
      }
      // Requests run together without punctuation ("make it darker make the colours pop"), or
      // with a reason or an emphasis after the edit.
      read ??= readPieces(splitRunTogether(atoms[i]!.text), p, readOnce) ?? readBeforeReason(atoms[i]!.text, p) ?? readWithAdded(atoms[i]!.text, readOnce);
      // "lighten the background, lighten the people": one edit of each part of the picture.
      const ofParts = (!read || read.every((op) => regionOfStep(op))) && atoms[i + 1] ? readOfParts([atoms[i]!.text, atoms[i + 1]!.text], p) : undefined;
      if (ofParts) [read, used] = [ofParts, 2];
      if (!read) {
        const error = failure(atoms[i]!.text, p);
        if (!this.generative) throw error.kind === 'generative' ? error : (needsModelLater(atoms.slice(i + 1), p, readOnce) ?? error);
        if (error.kind !== 'generative') throw error;
        [read, used] = [[{ op: 'generate', instruction: error.clause, ...(this.regions ? generativeRegion(atoms[i]!.text) : {}) }], 1];
      }
      for (const op of read) {
        const once = askedOnce(operations.at(-1), op);
        if (once) operations[operations.length - 1] = once;
        else operations.push(op);
      }
      if (operations.length > PLANNER_LIMITS.maxOperations) {
        throw new PromptError('limit', prompt.slice(0, 80), `The prompt asks for more than ${PLANNER_LIMITS.maxOperations} edits; split it into several requests.`, []);
      }
      i += used;
    }
    if (this.regions) operations.splice(0, operations.length, ...regionStepsFirst(wholeFromParts(operations)));
    assertTextsApart(operations, prompt);
    assertLighterMeant(operations, prompt);
    if (operations.length === 0) {
      throw new PromptError('not_understood', prompt, 'The prompt asks for no edit. Describe what to change, e.g. "rotate 90 degrees and make it black and white".', defaultSuggestions());
    }
    return { operations };
  }
}

/** Two texts at one place would be drawn over each other: the prompt must say where each goes. */
function assertTextsApart(operations: EditOperation[], prompt: string): void {
  const seen = new Set<string>();
  for (const op of operations) {
    if (op.op !== 'text') continue;
    if (seen.has(op.position)) {
      throw new PromptError('ambiguous', prompt.slice(0, 80), `Two texts would be written over each other at the ${op.position} of the image: say where each goes, e.g. "add text A at the top and text B at the bottom".`, []);
    }
    seen.add(op.position);
  }
}

/**
 * "convert to png and make it lighter", "make it lighter and smaller": beside a change of the
 * file or of the size, "lighter" may as well be its weight as its light. Said with "bright" it is light.
 */
function assertLighterMeant(operations: EditOperation[], prompt: string): void {
  const smaller = (op: EditOperation) => op.op === 'thumbnail' || (op.op === 'resize' && (op.width?.unit === '%' ? op.width.value < 100 : false));
  const fileChanged = operations.some((op) => op.op === 'format' || op.op === 'quality' || op.op === 'compress' || smaller(op));
  if (!fileChanged || !operations.some((op) => op.op === 'brightness')) return;
  if (/\blighter\b/i.test(prompt) && !/\bbright/i.test(prompt)) {
    throw new PromptError('ambiguous', prompt.slice(0, 80), 'Beside a change of the file or its size, "lighter" may mean a smaller file or a brighter picture: say "brighter" or "a smaller file".', []);
  }
}

/** How many clauses after one that is asked about are looked at for one that needs a model. */
const LOOK_AHEAD = 8;

/**
 * "crop the image and replace the background": asking for the crop's size would not make the
 * prompt possible here, so a later clause that needs a model (which this server has not) is the
 * answer, when one of the next few does.
 */
function needsModelLater(atoms: Atom[], p: Protected, readOnce: (text: string) => EditOperation[] | undefined): PromptError | undefined {
  const later = atoms.slice(0, LOOK_AHEAD).find((atom) => !readOnce(atom.text) && needsModel(atom.text, p));
  return later && failure(later.text, p);
}

/** Whether two clauses read together are fewer operations than each read alone. */
const mergesInto = (joined: EditOperation[] | undefined, first: EditOperation[], second: EditOperation[]) => joined !== undefined && joined.length < first.length + second.length;
/** The same operations, by name ("lighten and brighten"); texts only with the same words (two captions are two). */
const sameOperations = (a: EditOperation[], b: EditOperation[]) =>
  a.length === b.length && a.every((op, i) => op.op === b[i]!.op && (op.op !== 'text' || op.text === (b[i] as typeof op).text));

/** A word or clause past the limits is refused before any pattern runs over it. */
function assertReadable(atom: string, p: Protected): void {
  const words = atom.split(/\s+/);
  const long = words.find((word) => word.length > PLANNER_LIMITS.maxWordChars && !/^«[qf]\d+»$/.test(word));
  if (long !== undefined) {
    throw new PromptError('limit', `${long.slice(0, 40)}…`, `Could not understand "${long.slice(0, 40)}…": no edit has a word that long.`, defaultSuggestions());
  }
  if (words.length > PLANNER_LIMITS.maxClauseWords) {
    const clause = restore(atom, p).slice(0, 80);
    throw new PromptError('limit', clause, `Could not understand "${clause}…": one edit is a few words; separate edits with commas or "and".`, defaultSuggestions());
  }
}

/** Pieces of a clause a verb may start that are read together when they only make sense so ("remove the | blur"). */
const MAX_PIECES_TOGETHER = 4;

/**
 * Pieces cut before each verb ("zoom in | remove the | blur"), read as consecutive groups that
 * each read: single pieces where they can, else up to MAX_PIECES_TOGETHER together. Undefined
 * when some piece is in no readable group.
 */
function readPieces(pieces: string[], p: Protected, readOnce: (text: string) => EditOperation[] | undefined): EditOperation[] | undefined {
  if (pieces.length < 2) return undefined;
  // read[i]: the operations of pieces[0, i), when they can be grouped so.
  const read: Array<EditOperation[] | undefined> = [[]];
  for (let end = 1; end <= pieces.length; end++) {
    for (let size = 1; size <= Math.min(MAX_PIECES_TOGETHER, end) && !read[end]; size++) {
      const before = read[end - size];
      const group = before && readOnce(pieces.slice(end - size, end).join(' '));
      if (group) read[end] = [...before, ...group];
    }
  }
  return read[pieces.length] ?? readOfParts(pieces, p);
}

/**
 * "brighten the girl, brighten the background": one edit said of each part of the picture, which
 * together are all of it (targets.ts), is that edit of the whole image, once.
 */
function readOfParts(pieces: string[], p: Protected): EditOperation[] | undefined {
  let operations: EditOperation[] | undefined;
  const parts: Part[] = [];
  for (const piece of pieces) {
    const { text, flags } = canonicalClause(piece);
    const one = isNoRequest(flags) ? undefined : editOfOne(normalizeWords(text, isKnownWord));
    const read = one && readForm(one.edit, p);
    if (!read || read.length === 0 || (operations && JSON.stringify(read) !== JSON.stringify(operations))) return undefined;
    operations = read;
    parts.push(one.part);
  }
  return coverWhole(parts) ? operations : undefined;
}

/**
 * "make it brighter with a yellow tint", "blur it with a vignette": an edit, and another added
 * with it, when each reads on its own (and the whole did not: "rotate it with a white
 * background" is one rotation).
 */
function readWithAdded(atom: string, readOnce: (text: string) => EditOperation[] | undefined): EditOperation[] | undefined {
  const match = /^(\S+(?:\s+\S+)*?)\s+with\s+((?:a|an|some)\s+\S.*)$/i.exec(atom);
  const first = match && readOnce(match[1]!);
  const added = first && first.length > 0 ? readOnce(`add ${match[2]}`) : undefined;
  return added && added.length > 0 ? [...first!, ...added] : undefined;
}

/**
 * "brighten it so the highlights stand out", "darken it, especially the shadows", "darken it to
 * make it look more natural": what follows "so (that)" or "to make it look" says why, and
 * "especially" where it matters most, not what. The edit
 * before it is read alone, when it is one and the reason names nothing in the picture and asks
 * for nothing ("so I can highlight her face", "so you can see the whole car" are refused).
 */
function readBeforeReason(atom: string, p: Protected): EditOperation[] | undefined {
  const match = /^(\S+(?:\s+\S+)*?)\s+(?:so(?:\s+that)?|until|especially|particularly|mostly|mainly|to\s+make\s+(?:it|everything)(?:\s+(?:look|seem|appear|feel)(?!\s+like\b)|(?=\s+(?:more|less)\s))|to\s+(?:create|give|get|achieve|produce))\s+(\S.*)$/i.exec(atom);
  if (!match) return undefined;
  // A reason may describe the picture ("so it looks black and white"): read as said, not as a statement set aside.
  const reason = canonical(match[2]!);
  // A reason that names a part ("especially this part", "so the left side shows") is about that part.
  if (GENERATIVE.test(reason) || asksForMore(reason) || /\b(?:i|we|you|will|can|could|add|remove|make|change|put|highlight|his|her|their|my|your|our|this|that|these|those|here|there|part|parts|area|areas|region|spot|side|corner|left|right|top|bottom|middle|center)\b/.test(reason)) return undefined;
  // "make it lighter so it uploads faster": a reason about the file says "lighter" meant its weight.
  if (/\b(?:uploads?|downloads?|loads?|loading|file|size|kb|mb|bytes|email|e-mail|send|web|website|storage|space|faster|quicker)\b/.test(reason)) return undefined;
  // "blur it so the plate is hidden": what is hidden or made unreadable is a part of the picture.
  if (/\b(?:hid(?:e|den|ing)|unreadable|unrecogni[sz]able|censor(?:ed)?|cover(?:ed)?|obscured?|anonymi[sz]ed?|can'?t\s+(?:be\s+)?(?:see|seen|read))\b/.test(reason)) return undefined;
  const read = lightMeant(readClause(match[1]!, p), match[1]!, reason, p);
  if (!read || read.length === 0 || namesAnotherLook(reason, read, p)) return undefined;
  return read;
}

/**
 * "make the colours brighter so it isn't so dark": brightness words said of the colours ask for
 * vividness, unless the reason is about light; then they are light, and the colours the picture.
 */
function lightMeant(read: EditOperation[] | undefined, edit: string, reason: string, p: Protected): EditOperation[] | undefined {
  if (!read?.some((op) => op.op === 'saturation') || !reason.split(' ').some(isLightWord)) return read;
  const words = normalizeWords(canonical(edit), isKnownWord).split(' ');
  if (!words.some(isLightWord)) return read;
  return readForm(words.filter((word) => word !== 'color' && word !== 'colors').join(' '), p) ?? read;
}

/**
 * Styles a reason may name, with the edits that give them: "blur it to create a dreamy feel" is
 * one blur, "brighten it to give it a vintage feel" asks for more than brightness.
 */
const STYLES: readonly [RegExp, readonly EditOperation['op'][]][] = [
  [/\b(?:dreamy|dream|dreamlike|ethereal|soft)\b/, ['blur', 'glow']],
  [/\b(?:grainy|grain|film|filmic)\b/, ['noise']],
  [/\b(?:glows?|glowing)\b/, ['glow']],
  [/\b(?:vintage|retro|old|older|aged|antique|nostalgic)\b/, ['sepia']],
  [/\b(?:faded|matte|washed\s+out)\b/, ['saturation', 'contrast']],
  [/\b(?:moody|gloomy|somber|sombre)\b/, ['brightness', 'contrast', 'vignette', 'saturation']],
  [/\b(?:cinematic|movie|artistic|surreal|psychedelic|neon|hdr|polaroid|lomo|noir|gothic|spooky|creepy|eerie|magical|fantasy|sparkly|sparkling|glittery?|futuristic|sci-fi|cartoony|painted)\b/, []],
];

/**
 * "brighten it so it looks black and white", "darken it so that it is grainy": a reason that
 * itself reads as another edit, or names a style, asks for that too, and the edit before it
 * alone would not be what was asked. "brighten it so it appears whiter" reads as the same edit.
 */
function namesAnotherLook(reason: string, read: EditOperation[], p: Protected): boolean {
  const named = new Set<string>(read.map((op) => op.op));
  // A style the edit gives ("a dreamy feel" of a blur) is its look; one it does not give asks for more.
  const styles = STYLES.filter(([words]) => words.test(reason));
  if (styles.length > 0) return styles.some(([, edits]) => !edits.some((op) => named.has(op)));
  const core = reason
    .replace(/^(?:it|it's|its|everything|the\s+(?:image|photo|picture|pic))\s+(?:looks?|seems?|appears?|feels?|is|becomes?|gets?)\s+/, '')
    .replace(/^(?:it\s+)?(?:a|an|some|the)\s+/, '')
    .replace(/\s+(?:look|feel|vibe|effect|style|mood|atmosphere|tone)$/, '');
  const asked = readClause(`make it ${core}`, p) ?? readClause(core, p);
  return asked !== undefined && asked.some((op) => !named.has(op.op) && !(RESULTS[op.op] ?? []).some((cause) => named.has(cause)));
}

/** What an edit gives as well as its own: removing noise or haze, or more contrast, makes it clearer. */
const RESULTS: Partial<Record<string, readonly string[]>> = { sharpen: ['denoise', 'dehaze', 'contrast'] };

/**
 * "lighten it a lot so it looks like a clear day", "brighten it as if lit by a flash", "raise
 * the contrast bringing out the shadows and highlights": the look the edit is for, said after a
 * tone or filter edit of the whole picture. Only then: after a crop or a zoom the same words say
 * what to keep ("zoom in so it looks like a close-up of the car"). The look itself must name no
 * content or part and ask for nothing ("so it looks like a painting" stays a model's work).
 */
function readBeforeOutcome(atom: string, p: Protected): EditOperation[] | undefined {
  const match = /^(\S+(?:\s+\S+)*?)\s+(?:so(?:\s+that)?\s+(?:it|it's|its|everything|the\s+(?:image|photo|picture))\s+(?:looks?|seems?|appears?)\s+(?:like|as\s+if)|as\s+if|(?:bringing|pulling)\s+out)\s+(\S.*)$/i.exec(atom);
  if (!match) return undefined;
  const { text: look, flags } = canonicalClause(match[2]!);
  if (isNoRequest(flags)) return undefined;
  if (GENERATIVE.test(look) || asksForMore(look) || !look.split(' ').every((word) => LIGHT_AND_TIME.has(word))) return undefined;
  const read = readClause(match[1]!, p);
  return read && read.length > 0 && read.every((op) => LOOKS.has(op.op)) ? read : undefined;
}

/**
 * The words a look after a tone edit may use: light, the time of day, weather and season, the
 * ends of the tonal range. A look named otherwise ("as if seen through night vision", "as if it
 * were an x-ray", "so it looks like an old film") is another effect than the edit before it,
 * which alone would not be what was asked.
 */
const LIGHT_AND_TIME: ReadonlySet<string> = new Set(
  `a an the it it's its is was were be had been more less very bit little much and both all of to their maximum full
  taken shot lit by at in on during with under through from
  day daytime night nighttime noon midday morning afternoon evening dusk dawn sunset sunrise twilight golden hour
  sun sunny sunshine sunlight daylight moonlight clear bright brighter dark darker light lighter well cloudy overcast gloomy rainy
  flash lamp lamps studio natural real realistic professional modern clean cleaner fresh crisp
  summer spring autumn fall winter outdoors indoors outside inside shade
  shadows shadow highlights highlight details detail midtones tones`.split(/\s+/),
);

/**
 * The same look asked for twice in a row is one request said twice ("saturate it, make the
 * colours vivid"; "make it darker, it's way too bright"): the stronger of the two, once. Opposite
 * directions ("make it warmer and cooler") contradict each other and are asked about; geometry
 * ("rotate 90, then rotate 90") is kept twice.
 */
function askedOnce(last: EditOperation | undefined, op: EditOperation): EditOperation | undefined {
  if (!last || last.op !== op.op || regionOfStep(last) !== regionOfStep(op)) return undefined;
  // A measured straightening or a trim twice is the first again ("it's crooked, straighten it").
  if (MEASURED.has(op.op) && !('degrees' in op && op.degrees !== undefined) && JSON.stringify(last) === JSON.stringify(op)) return last;
  if (!LOOKS.has(op.op)) return undefined;
  if (JSON.stringify(last) === JSON.stringify(op)) return last;
  const strength = STRENGTHS[op.op];
  if (!strength) return undefined;
  const offset = (o: EditOperation) => {
    const value = (o as unknown as Record<string, number>)[strength.key]!;
    return strength.ratio ? Math.log(value / strength.neutral) : value - strength.neutral;
  };
  const [before, now] = [offset(last), offset(op)];
  if (Math.sign(before) !== Math.sign(now)) {
    throw new PromptError('ambiguous', op.op, `The prompt asks for opposite changes of ${op.op} one after the other; say which one you want.`, []);
  }
  return Math.abs(now) > Math.abs(before) ? op : last;
}

/** Geometry measured from the picture: done twice, the second finds nothing left to do. */
const MEASURED: ReadonlySet<string> = new Set(['straighten', 'trim']);

