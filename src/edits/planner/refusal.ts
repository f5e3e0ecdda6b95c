import { OPERATION_CATALOGUE, type CatalogueEntry } from '../catalogue.ts';
import { REFUSAL_REASONS, type RefusalReason } from '../refusal-reasons.ts';
import type { OperationName } from '../plan.ts';
import { Clause, isFiller, quantityOf } from './clause.ts';
import { namedColor } from './colors.ts';
import { MENDING_VERBS, ALTERNATIVE_WORDS, APP_NAMES, BACKGROUND_LOOKS, BACKGROUND_ONLY, CONTENT_NOUNS, LOOK_NOUNS, MEASURE_WORDS, NOT_ALTERNATIVE_AFTER, NOT_ALTERNATIVE_BEFORE, CROP_SAID, TEXT_NOUNS, WRITING_VERBS, DIRECTED, MARGIN_WORDS, NEGATORS, NOUNS, PLAIN_COLOR_READINGS, WHOLE_COLOR_FRAME, POSSESSIVE_PRONOUNS, REGION_ACTIONS, REGION_LEADS, REGION_RELATIONS, REGION_VERBS, UNSURE_VERBS, partOfSpeech, regionOf, type Region } from './lexicon.ts';
import { amountRefusal } from './amounts.ts';
import { looksLikeMash } from './dictionary.ts';
import { sidesUncounted } from './geometry.ts';
import { questionFor } from './questions.ts';
import { addsNewThing, isRegionStatement, placesWholePicture } from './regions.ts';
import { find, isLetters, isPhraseWord, lettersOf, phrases, wordClass, type Phrases } from './phrases.ts';
import { regionOfStep } from '../operations/registry.ts';
import { VIVID_WHEN_COLORS } from './adjustment-rules.ts';
import { colorsIn, isKnownWord, isLexiconWord, isPlaceParticle, measuredAgainst, mayRead, readForm, RULES, sideOnly, upOrDownOfNothing } from './reading.ts';
import { canonicalClause, isNoRequest, restore, type Protected } from './text.ts';
import { distance, normalizeWords, typoBound } from './words.ts';

/** Why a clause cannot be planned, said so the person can act on it: a question, a model's work, or the closest operations. */

export interface Suggestion {
  op: OperationName;
  example: string;
}

// The reasons themselves live in ../refusal-reasons.ts, which says what each one means.
export { REFUSAL_REASONS, type RefusalReason };

/** Reasons a generative model (with a mask, for a region) could take on. */
const FOR_A_MODEL: ReadonlySet<RefusalReason> = new Set(['needs_region', 'needs_model']);

/** A prompt that cannot be planned: a clause nothing maps to, or one only a generative model could do. */
export class PromptError extends Error {
  readonly reason: RefusalReason;
  readonly clause: string;
  /** `generative` when a generative model could do the clause, else `not_understood`. */
  readonly kind: 'not_understood' | 'generative';
  /** Ways to say it that the planner reads (an own, enumerable property, made when first read). */
  declare suggestions: Suggestion[];

  /**
   * The message and the suggestions may be given as functions, called when first read: most
   * refusals of a clause are a step of reading and never shown (with a provider, a clause of
   * content becomes a `generate` step; a clause is tried again joined with its neighbours), and
   * ranking the catalogue for suggestions was most of a long prompt's planning time. Either may
   * be set like any property. (A lazy message is an accessor, which structuredClone leaves out:
   * a refusal crosses a thread as plain data, planner-thread.ts.)
   */
  constructor(reason: RefusalReason, clause: string, message: string | (() => string), suggestions: Suggestion[] | (() => Suggestion[])) {
    // A refusal is an answer, not a fault of the code: where it was made says nothing, and
    // capturing the stack was a tenth of a long prompt's planning (one is made per clause read).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(typeof message === 'string' ? message : undefined);
    Error.stackTraceLimit = stackTraceLimit;
    if (typeof message !== 'string') {
      let text: string | undefined;
      Object.defineProperty(this, 'message', {
        get: () => (text ??= message()),
        set: (value: string) => (text = value),
        enumerable: false,
        configurable: true,
      });
    }
    let ranked = typeof suggestions === 'function' ? undefined : suggestions;
    Object.defineProperty(this, 'suggestions', {
      get: () => (ranked ??= (suggestions as () => Suggestion[])()),
      set: (value: Suggestion[]) => (ranked = value),
      enumerable: true,
      configurable: true,
    });
    this.reason = reason;
    this.clause = clause;
    this.kind = FOR_A_MODEL.has(reason) ? 'generative' : 'not_understood';
  }
}

/**
 * A plan that would make more provider calls than one edit may (TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT):
 * refused before any is paid, whichever planner made it; `instruction` is the first step past the cap.
 */
const CORNER_SIDES: ReadonlySet<string> = new Set(['top', 'bottom', 'left', 'right', 'upper', 'lower', 'hand']);
/** The clause with its corner, and the one side said of it, made the bottom right one. */
function cornerNamed(form: string): string {
  const words = form.split(' ');
  const at = words.indexOf('corner');
  let from = at;
  while (from > 0 && CORNER_SIDES.has(words[from - 1]!)) from--;
  return [...words.slice(0, from), 'bottom', 'right', 'corner', ...words.slice(at + 1)].join(' ');
}

export function tooManyGenerateSteps(maxSteps: number, instruction: string): PromptError {
  return new PromptError(
    'limit',
    instruction,
    `The prompt asks for more than ${maxSteps} edits a generative model must paint, the most one request may make on this server: split it into several requests.`,
    [],
  );
}

wordClass('content', CONTENT_NOUNS);

// Edits that need a model that paints new pixels, recognised so the answer can say so: content
// and parts of a picture, styles, and verbs that make or take away things.
const GENERATIVE = phrases(
  'upscale with ai',
  'ai upscale',
  'super resolution',
  'in the style of',
  'style of',
  'look|looks like',
  'as if',
  'turn [it|this] into',
  'oil paint',
  'van gogh',
  't shirt|shirts',
  'change|edit|switch|swap|fix [the|to] word|words|wording|text|writing|lettering|letters|number|numbers|sign|signs',
  'replace|swap|erase|inpaint|outpaint|generate|draw|paint|restore|colorize|colourise|colourize|superresolution|cartoon|anime|painting|watercolor|watercolour',
  'comic|pixar|ghibli|picasso|cyberpunk|photorealistic',
  // A part of the picture or its content named (the lexicon's region and content nouns).
  '@content',
);
/** Verbs that take a thing away, and the words after them that are no thing in the picture. */
const TAKE_AWAY = phrases('take out', 'get rid of', 'remove|delete');
const NOT_TAKEN_THINGS = ['background', 'noise', 'grain', 'metadata', 'exif', 'gps', 'border', 'transparen'];
/** Verbs that add a thing, and the words after "a" that are no thing in the picture. */
// "add my brother", "put our dog in it": someone of the asker's put in, as much a model's work as "a dog".
const PUT_IN = phrases('add|insert|put|place a|an|some', 'add|insert|put|place my|our|his|her|their|your');
const NOT_ADDED_THINGS = ['border', 'frame', 'vignette', 'tint', 'caption', 'watermark', 'logo', 'text', 'blur', 'title', 'label', 'margin', 'padding', 'name', 'signature', 'initials', 'website', 'handle', 'username', 'number', 'email'];
const startsAny = (prefixes: readonly string[]) => (word: string) => prefixes.some((prefix) => word.startsWith(prefix));
const isTakenNoThing = startsAny(NOT_TAKEN_THINGS);
/** What an edit adds ("add a border"), and a look asked for ("add some drama", LOOK_NOUNS): no thing put in. */
const isAddedNoThing = (word: string) => startsAny(NOT_ADDED_THINGS)(word) || LOOK_NOUNS.has(word);

/** "the sign's" → "the sign": the thing, not its possessive. */
const withoutPossessive = (word: string) => (word.endsWith("'s") ? word.slice(0, -2) : word);

/** The runs of letters, digits and "_" of a text, lower case. */
function wordRuns(text: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of text.toLowerCase()) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_') word += ch;
    else if (word) [out[out.length], word] = [word, ''];
  }
  if (word) out.push(word);
  return out;
}

/**
 * Whether a phrase of the list is followed by a word that is a thing (`isNoThing` says which are
 * not). A measure first says how much of what follows ("add a 2 cm border", "a 10 or 20 px
 * padding", with its colour: "a 1 inch white frame"): the word after it is the one looked at. (A
 * colour alone stays the word looked at: "add a red border around him" is content.)
 */
function followedByThing(words: readonly string[], list: Phrases, isNoThing: (word: string) => boolean): boolean {
  for (let from = 0, m = find(words, list); m; m = find(words, list, ++from)) {
    let at = m.end;
    while (at < words.length && isMeasure(words, at)) at++;
    if (at > m.end) while (at + 1 < words.length && namedColor(words[at]!) !== undefined) at++;
    const next = words[at];
    if (next !== undefined && !isNoThing(next)) return true;
    from = m.start;
  }
  return false;
}

/** A number, a measure's word after one, or "or"/"to" between two numbers ("10 or 20 px"). */
function isMeasure(words: readonly string[], at: number): boolean {
  const word = words[at]!;
  if (quantityOf(word) !== undefined) return true;
  const after = (k: number) => quantityOf(words[at - k] ?? '') !== undefined;
  return (MEASURE_WORDS.has(word) && (after(1) || (after(2) && MEASURE_WORDS.has(words[at - 1]!)))) || ((word === 'or' || word === 'to') && after(1) && quantityOf(words[at + 1] ?? '') !== undefined);
}

/** Whether a text (canonical) asks for something only a generative model could do. */
export function isGenerative(text: string): boolean {
  const words = wordRuns(text);
  return find(words, GENERATIVE) !== undefined || followedByThing(words, TAKE_AWAY, isTakenNoThing) || followedByThing(words, PUT_IN, isAddedNoThing);
}

/** Whether a clause nothing reads needs a model (without the suggestions the refusal's message lists). */
export function needsModel(atom: string, p: Protected): boolean {
  const clause = canonicalClause(atom);
  const form = normalizeWords(clause.text, isKnownWord);
  return !isNoRequest(clause.flags) && !questionFor(form) && namesContent(form, p, restore(atom, p));
}

/** A clause (normalised; `written` as the person wrote it) about content or a part of the picture: a model's work, when its words are words. */
const namesContent = (form: string, p: Protected, written: string) => asksForContent(form, p) && mashIn(form, written).length === 0;
const asksForContent = (form: string, p: Protected) => isGenerative(form) || colorsIn(form) || aboutSomething(form, p) || placedBySomeone(form) || shareOfIt(form);

/**
 * The words of a clause that are keys struck at random (dictionary.ts: no vowel, a hand sliding
 * along a row of keys, a key held): "remove the qzxv", "add a sdfg", "replace the background with
 * zxcv" name nothing, and are not sent to a paid model as if they did; the clause is not
 * understood, with the letters quoted. Names, brands and typos can be said ("remove Jessica",
 * "remove the adidas logo", "remove the wtrmark") and are left to the model.
 */
function mashIn(form: string, written: string): string[] {
  const names = namesWritten(written);
  return form
    .split(' ')
    .map(withoutPossessive)
    .filter((word) => looksLikeMash(word) && !names.has(word) && !isLexiconWord(word) && !isPhraseWord(word) && partOfSpeech(word) === undefined && !APP_NAMES.has(word));
}

/**
 * The words written with a capital ("remove the KPMG logo", "remove Wertheim"): names, brands
 * and acronyms, never keys struck at random. None when every word has one ("REMOVE THE QZXV",
 * "Remove The Qzxv Please"), which says nothing of any one word.
 */
function namesWritten(written: string): ReadonlySet<string> {
  const words = lettersOf(written, true);
  const capitalised = (word: string) => word !== word.toLowerCase();
  if (words.every(capitalised)) return new Set();
  // A capital on the clause's first word is the sentence's ("Asdf the sky"), not a name's.
  return new Set(words.slice(1).filter(capitalised).map((word) => word.toLowerCase()));
}

/** "brighten half of it", "darken a quarter of the photo": an edit of a share of the picture, which is a part of it. */
const shareOfIt = (form: string) => form.split(' ').some((word, i, words) => quantityOf(word)?.unit === '%' && words[i + 1] === 'of');

/**
 * "put text behind him", "a frame around her": something placed in relation to a person in the
 * picture (behind them, round their outline) is a composite with them cut out, not a classic edit.
 */
function placedBySomeone(form: string): boolean {
  const words = form.split(' ');
  return words.some((word, i) => {
    if (!REGION_RELATIONS.has(word)) return false;
    let j = i + 1;
    while (j < words.length - 1 && REGION_LEADS.has(words[j]!) && regionOf(words[j]!) !== 'subject') j++;
    return regionOf(words[j] ?? '') === 'subject';
  });
}

/** What the refusal may say of the server: whether it locates regions (TESSERA_SEGMENTER is not off). */
export interface FailureOptions {
  regions?: boolean;
}

const FLIP_WORDS: ReadonlySet<string> = new Set(['flip', 'flipped', 'mirror', 'mirrored', 'reflect', 'reflected', 'flop']);

/** The refusal of a clause nothing reads. */
export function failure(atom: string, p: Protected, options: FailureOptions = {}): PromptError {
  const clause = restore(atom, p);
  const { text, flags } = canonicalClause(atom);
  const form = normalizeWords(text, isKnownWord);
  // Ranked only when the refusal is shown (see PromptError).
  let ranked: Suggestion[] | undefined;
  const suggestions = () => (ranked ??= suggest(form, p));
  const list = () => suggestions().map((s) => `${s.op} (e.g. "${s.example}")`).join(', ');
  // "is it too dark?", "the photo is warm": asked, or said of the picture, with no edit in it.
  const said = flags.question ? 'question' : flags.statement || flags.outcome || flags.aside || isRegionStatement(form) ? 'statement' : undefined;
  if (said) {
    return new PromptError(said, clause, () => `"${clause}" says how the picture is, or asks, but not what to change: say the edit, e.g. ${list()}.`, suggestions);
  }
  const question = flags.negated ? undefined : questionFor(form);
  if (question) return new PromptError('missing_parameter', clause, `"${clause}" is missing something: ${question}.`, suggestions);
  if (flags.negated || form.split(' ').some((word) => NEGATORS.has(word))) {
    return new PromptError('negation', clause, () => `"${clause}" says what not to do or to keep, which no edit can be checked against: say the edit you want, e.g. ${list()}.`, suggestions);
  }
  if (upOrDownOfNothing(form)) {
    return new PromptError('missing_parameter', clause, `"${clause}" asks for more or less (up or down), but not of what: name it, e.g. "turn the brightness up", "turn the contrast down by 20%" or "scale it up".`, suggestions);
  }
  if (measuredAgainst(form)) {
    return new PromptError('missing_parameter', clause, `"${clause}" measures the edit against something this request does not hold (another picture, an earlier edit): say how much, e.g. "20% brighter" or "resize to 1200 wide".`, suggestions);
  }
  if (sidesUncounted(form.split(' ')) && readForm(form.split(' ').map((word) => (word === 'sides' ? 'left and right sides' : word)).join(' '), p)) {
    return new PromptError('ambiguous', clause, `"${clause}" may mean the left and right sides or all four: say "the left and right sides" or "each side".`, suggestions);
  }
  const formWords = form.split(' ');
  // "flip it on the horizontal axis": across that line, or in that direction? (geometry.ts)
  if (formWords.includes('axis') && formWords.some((word) => FLIP_WORDS.has(word))) {
    return new PromptError('ambiguous', clause, `"${clause}" may flip across that axis or along it: say "flip it upside down" (top to bottom) or "mirror it" (left to right).`, suggestions);
  }
  // "brighten the colour", "a brighter colour": more light, or more vivid colour (adjustment-rules.ts).
  const asColors = () => readForm(formWords.map((word) => (word === 'color' ? 'colors' : word)).join(' '), p);
  if (formWords.includes('color') && !formWords.includes('colors') && formWords.some((word) => VIVID_WHEN_COLORS.has(word)) && asColors()?.some((op) => op.op === 'saturation' && regionOfStep(op) === undefined)) {
    return new PromptError('ambiguous', clause, `"${clause}" may mean more light or more vivid colour: say "make it brighter" or "make the colours more vivid".`, suggestions);
  }
  // "put it on a white background": the subject cut out onto the colour, or the whole picture on
  // a larger canvas of it (regions.ts).
  if (placesWholePicture(formWords) && formWords.some((word) => regionOf(word) === 'background') && formWords.some((word) => namedColor(word) !== undefined)) {
    return new PromptError('ambiguous', clause, `"${clause}" may mean the subject cut out onto that colour or the whole picture on a larger canvas of it: say "make the background white" or "pad it with white".`, suggestions);
  }
  // "add "hi" in the corner", "… in the right corner": a text that reads with the corner named
  // ("the bottom right corner"); one side names two corners.
  if (form.split(' ').includes('corner') && readForm(cornerNamed(form), p)?.some((op) => op.op === 'text')) {
    return new PromptError('ambiguous', clause, `"${clause}" says not which corner: say "the top left corner", "the bottom right corner"…`, suggestions);
  }
  if (sideOnly(form)) {
    return new PromptError('ambiguous', clause, `"${clause}" may mean the picture stretched, canvas added, or the other side cropped: say "stretch it horizontally", "pad the sides by 100px" or "crop to 16:9".`, suggestions);
  }
  const amount = amountRefusal(form, p, options.regions);
  if (amount) return new PromptError(amount.reason, clause, `"${clause}" ${amount.why}`, suggestions);
  const asked = askedHowMuch(form);
  if (asked) return new PromptError('ambiguous', clause, `"${clause}" ${asked}`, suggestions);
  const plain = plainColorMade(form);
  if (plain) {
    return new PromptError('ambiguous', clause, `"${clause}" may mean ${plain.join(', ')}: say which.`, suggestions);
  }
  // "fade the background", "fade her face": a verb unsure of its edit is as unsure of a part the
  // server locates as of the whole picture (below): asked, never a region's guess or a paid step.
  // Only the verb asking ("fade the background", "please fade her face"), not a fade mended
  // ("restore the faded background", "fade correction") nor one "to" something ("fade the
  // background to white", "fading to black around the edges": a gradient, new pixels).
  const saidWords = formWords.filter((word) => !isFiller(word));
  const unsureVerb = UNSURE_VERBS.has(saidWords[0] ?? '') && !formWords.includes('to') && !formWords.includes('into') && !saidWords.some((word) => MENDING_VERBS.has(word) || word === 'correction') ? saidWords[0] : undefined;
  const unsurePart = unsureVerb && formWords.map((word) => regionOf(word)).findLast((region) => region !== undefined && region !== 'none');
  if (unsureVerb && unsurePart) {
    const part = REGION_NAMES[unsurePart];
    return new PromptError('ambiguous', clause, `"${clause}" may mean ${UNSURE_VERBS.get(unsureVerb)!}: say the edit, e.g. "lower the contrast of ${part}" or "brighten ${part}".`, suggestions);
  }
  const regions = regionEdit(form, p);
  if (regions) {
    const named = regions.map((region) => REGION_NAMES[region]).join(' and ');
    // Regions off: the server cannot locate it. On: the region is one it finds, but the edit of it was not read for sure.
    const why = options.regions
      ? `this server locates ${REGION_LIST}, but could not read this as one edit of ${regions.length > 1 ? 'one of them' : 'it'} for sure: say one edit of one region, e.g. "blur the background", "brighten her face"`
      : `that needs ${named} located, and region edits are off on this server (TESSERA_SEGMENTER=off)`;
    return new PromptError('needs_region', clause, () => `"${clause}" edits ${named}: ${why}. Edits of the whole image it can do include: ${list()}.`, suggestions);
  }
  const unnamed = asksForContent(form, p) ? mashIn(form, clause) : [];
  if (unnamed.length > 0) {
    return new PromptError(
      'not_understood',
      clause,
      () => `Could not understand "${clause}": ${unnamed.map((word) => `"${word}"`).join(', ')} ${unnamed.length > 1 ? 'are no words' : 'is no word'}, so it cannot tell what to change. Name the thing in words; edits of the whole image it can do include: ${list()}.`,
      suggestions,
    );
  }
  if (namesContent(form, p, clause)) {
    return new PromptError(
      'needs_model',
      clause,
      () => `"${clause}" changes part of the picture or its content: that needs a selection or a generative image model, and none is configured on this server. Edits of the whole image it can do include: ${list()}.`,
      suggestions,
    );
  }
  const unsure = form.split(' ').find((word) => UNSURE_VERBS.has(word));
  if (unsure) {
    return new PromptError('ambiguous', clause, `"${clause}" may mean ${UNSURE_VERBS.get(unsure)!}: say the edit, e.g. "lower the contrast slightly" or "make the colours less vivid".`, suggestions);
  }
  return new PromptError(
    'not_understood',
    clause,
    () => `Could not understand "${clause}". Closest operations: ${list()}. GET /v1/images/operations lists them all.`,
    suggestions,
  );
}

/**
 * A classic edit of one region the lexicon names ("blur the background", "make her face
 * brighter", "make the man black and white", "crop to the dog", "remove the background"): the
 * region's words taken out, the rest reads as an edit, or is an edit that exists only for that
 * region. A region no model finds ("the sky", "her hair") is not one.
 */
function regionEdit(form: string, p: Protected): Exclude<Region, 'none'>[] | undefined {
  // "add bokeh to the background": a look only a background has is a blur of it (of anything else, unread).
  const said = form.split(' ');
  const ofBackground = said.some((word) => regionOf(word) === 'background');
  const words = said.map((word) => (ofBackground && BACKGROUND_LOOKS.has(word) ? 'blur' : word));
  const regions = new Set<Region>();
  const rest: string[] = [];
  for (const [i, word] of words.entries()) {
    const region = regionOf(word);
    // "her face": the possessive leads to the region after it.
    if (region === undefined || (POSSESSIVE_PRONOUNS.has(word) && regionOf(words[i + 1] ?? '') !== undefined)) {
      rest.push(word);
      continue;
    }
    regions.add(region);
    while (rest.length > 0 && REGION_LEADS.has(rest.at(-1)!)) rest.pop();
  }
  // The background with the subject, unless both take the edit (then it is the whole image, read
  // before), relates them ("put the woman onto a lighter background"): a model's work.
  if (regions.size === 0 || regions.has('none') || (regions.has('background') && regions.has('subject'))) return undefined;
  // "add a blurry cat": a new one drawn, not the one there edited.
  if (addsNewThing(words)) return undefined;
  const named = [...regions] as Exclude<Region, 'none'>[];
  // A plain colour fills the background: a colour is an action there.
  const action = (word: string) => (namedColor(word) !== undefined ? BACKGROUND_ONLY : REGION_ACTIONS.get(word));
  const forEvery = (word: string) => [...regions].every((region) => action(word)?.has(region));
  if (rest.some(forEvery) && rest.every((word) => forEvery(word) || isFiller(word) || REGION_VERBS.has(word))) return named;
  const read = readForm(rest.join(' '), p);
  return read !== undefined && read.length > 0 && read.every((op) => REGION_LOOKS.has(op.op)) ? named : undefined;
}

/** How a refusal names a region. */
const REGION_NAMES: Record<Exclude<Region, 'none'>, string> = { background: 'the background', subject: 'the subject', face: 'the faces' };
const REGION_LIST = 'the background, the subject and the faces';

/** Edits of how a region looks, which a located region can take ("extend the background" is new pixels, not one). */
const REGION_LOOKS: ReadonlySet<string> = new Set([
  'blur', 'sharpen', 'pixelate', 'denoise', 'brightness', 'contrast', 'saturation', 'grayscale', 'sepia', 'tint', 'temperature', 'color_balance', 'gamma', 'normalize',
]);

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
  const namesThings = (left: string[]) => left.length > 0 && left.length <= 4 && left.every(isNameLike) && left.some(named);
  // A colour said of a thing ("change the frog's colour to green", "the girl's eye colours to blue").
  if (words.some((word) => word === 'color' || word === 'colors' || namedColor(word) !== undefined)) {
    const left = words.filter((word) => !isFiller(word) && !COLOR_VERBS.has(word) && namedColor(word) === undefined);
    if (namesThings(left)) return true;
  }
  const present = new Set(new Clause(form, p.quotes, p.files).words());
  const partly = RULES.some((rule) => {
    if (!mayRead(rule, present)) return false;
    const clause = new Clause(form, p.quotes, p.files);
    const read = rule.parse(clause);
    return read !== undefined && read.length > 0 && namesThings(clause.leftovers());
  });
  if (partly) return true;
  // "add lava down the slope", "his dog up here": a place said with "up" or "down" is where in
  // the picture, and the things named beside it are in it (the place's particle is no way of an amount).
  const place = words.findIndex((_, i) => isPlaceParticle(words, i));
  if (place >= 0 && namesThings(new Clause(form, p.quotes, p.files).leftovers().filter((word) => word !== words[place]))) return true;
  return editOfThing(words, p);
}
const COLOR_VERBS = new Set(['change', 'changed', 'turn', 'color', 'colors', 'paint', 'recolor', 'from']);
const DETERMINERS = new Set(['the', 'her', 'his', 'their', 'its', 'my', 'your', 'our']);
/** A word that may name a thing: letters only, three or more, or a thing's ("the sign's brightness"). */
const isNameLike = (word: string) => {
  const name = withoutPossessive(word);
  return name.length >= 3 && isLetters(name);
};
/** Words that link a thing to the edit before it ("the brightness of the sign", "on the lower part"). */
const THING_LINKS = new Set(['of', 'on', 'in', 'at', 'for']);
/** How many determiners are looked at, and how many words a thing between one and the quality may have: planning stays linear. */
const MAX_THINGS = 3;
const MAX_MODIFIER_WORDS = 2;

/**
 * A reader that takes a clause whole: the edit reads once the thing it is said of is taken out.
 * The thing follows the edit with its determiner, and the word linking them ("brighten the right
 * half", "increase the brightness on the lower part"), or stands between a determiner and the
 * quality, which is the thing's ("increase the sign brightness": the sign's, not the picture's).
 * The thing itself must read as no edit ("brighten the contrast" is not a thing).
 */
function editOfThing(words: string[], p: Protected): boolean {
  // Between a determiner and the quality, a word with a meaning of its own is no thing ("the
  // overall brightness", "the black colour").
  const isThing = (thing: string[], between = false) =>
    thing.length > 0 && thing.length <= 4 && thing.some((word) => isNameLike(word) && !(between && isLexiconWord(word))) && readForm(thing.join(' '), p) === undefined;
  const reads = (edit: string[]) => (readForm(edit.join(' '), p)?.length ?? 0) > 0;
  let tried = 0;
  for (const [at, word] of words.entries()) {
    if (at === 0 || !DETERMINERS.has(word)) continue;
    if (++tried > MAX_THINGS) return false;
    if (isThing(words.slice(at + 1)) && reads(words.slice(0, THING_LINKS.has(words[at - 1]!) ? at - 1 : at))) return true;
    for (let n = 1; n <= MAX_MODIFIER_WORDS && at + n + 1 < words.length; n++) {
      if (isThing(words.slice(at + 1, at + n + 1), true) && reads([...words.slice(0, at + 1), ...words.slice(at + n + 1)])) return true;
    }
  }
  return false;
}

/** Operations whose rule got part of the way, then those sharing (or nearly sharing) a word. */
function suggest(form: string, p: Protected): Suggestion[] {
  const scores = new Map<CatalogueEntry, number>();
  const words = [...new Set(wordRuns(form).filter((w) => w.length >= 3 && !isFiller(w)))];
  const present = new Set(new Clause(form, p.quotes, p.files).words());
  for (const entry of OPERATION_CATALOGUE) {
    let score = 0;
    for (const word of words) {
      for (const keyword of entry.keywords) {
        if (word === keyword) score += 3;
        else if (word.length >= 4 && (keyword.startsWith(word) || word.startsWith(keyword))) score += 2;
        else if (word.length >= 4 && nearKeywords(word).has(keyword)) score += 2;
      }
    }
    // Every rule of the operation, not only the first: several read one operation.
    if (RULES.some((rule) => rule.op === entry.op && mayRead(rule, present) && rule.parse(new Clause(form, p.quotes, p.files)))) score += 4;
    if (score > 0) scores.set(entry, score);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return ranked.length > 0 ? ranked.map(([entry]) => ({ op: entry.op, example: entry.examples[0]! })) : defaultSuggestions();
}

export function defaultSuggestions(): Suggestion[] {
  return (['resize', 'rotate', 'grayscale'] as const).map((op) => ({ op, example: OPERATION_CATALOGUE.find((e) => e.op === op)!.examples[0]! }));
}

/** The catalogue's keywords by length: a word is compared only with those its typo bound can reach. */
const KEYWORDS_BY_LENGTH: string[][] = [];
for (const keyword of new Set(OPERATION_CATALOGUE.flatMap((entry) => entry.keywords))) (KEYWORDS_BY_LENGTH[keyword.length] ??= []).push(keyword);
/** Answers of nearKeywords, since the same words come back in every clause; cleared when full. */
const nearAnswers = new Map<string, ReadonlySet<string>>();
const MAX_NEAR_ANSWERS = 4096;

/** The keywords a word is a typo's distance from ("roate", "greyscal"), with the bound typos are corrected at. */
function nearKeywords(word: string): ReadonlySet<string> {
  const known = nearAnswers.get(word);
  if (known) return known;
  if (nearAnswers.size >= MAX_NEAR_ANSWERS) nearAnswers.clear();
  const bound = typoBound(word);
  const near = new Set<string>();
  for (let length = word.length - bound; length <= word.length + bound; length++) {
    for (const keyword of KEYWORDS_BY_LENGTH[length] ?? []) if (distance(word, keyword, bound) <= bound) near.add(keyword);
  }
  nearAnswers.set(word, near);
  return near;
}

/** "make it white": the readings of a colour without a hue made of the whole picture, or undefined. */
function plainColorMade(form: string): readonly string[] | undefined {
  const words = form.split(' ').filter((word) => word !== '' && !isFiller(word));
  const colors = words.filter((word) => PLAIN_COLOR_READINGS.has(word));
  if (colors.length !== 1 || !words.every((word) => PLAIN_COLOR_READINGS.has(word) || WHOLE_COLOR_FRAME.has(word))) return undefined;
  return PLAIN_COLOR_READINGS.get(colors[0]!);
}

/**
 * "blur it less": a smaller blur, or less blur (sharper)? "crop to the face with 10px padding": a
 * looser crop, or canvas added after it? Both are asked about, not refused as unknown.
 */
function askedHowMuch(form: string): string | undefined {
  const words = form.split(' ').filter((word) => word !== '' && !isFiller(word));
  const verb = words[0] ?? '';
  if (words.at(-1) === 'less' && (NOUNS[verb] !== undefined || DIRECTED[verb] !== undefined)) {
    return `may mean a smaller change or the opposite one: say "less ${verb}" or "${verb} it slightly".`;
  }
  const all = form.split(' ');
  const alternative = all.some((word, i) => ALTERNATIVE_WORDS.has(word) && !NOT_ALTERNATIVE_BEFORE.has(all[i - 1] ?? '') && !NOT_ALTERNATIVE_AFTER.has(all[i + 1] ?? ''));
  // New content with alternatives ("replace the sky with a sunset or a beach") is a model's to choose.
  if (alternative && !isGenerative(form)) return 'names alternatives: say the one edit you want.';
  // "add the words salt and pepper": the words to write, unquoted, were not read as one text.
  const written = all.findIndex((word) => WRITING_VERBS.has(word));
  const noun = written < 0 ? -1 : all.findIndex((word, i) => i > written && TEXT_NOUNS.has(word));
  const placedByPart = all.slice(noun + 1).some((word) => REGION_RELATIONS.has(word) || regionOf(word) !== undefined);
  if (noun > written && noun <= written + 2 && noun < all.length - 1 && !placedByPart) return 'names words to write that were not read as one text: put them in quotes, e.g. \'add the text "salt and pepper"\'.';
  const at = all.indexOf('with');
  if (at > 0 && all.slice(0, at).some((word) => CROP_SAID.has(word)) && all.slice(at).some((word) => MARGIN_WORDS.has(word))) {
    return 'may mean a looser crop or canvas added after it: say the crop ("crop to the face with a 20% margin") or the padding ("add 20px padding") alone.';
  }
  return undefined;
}
