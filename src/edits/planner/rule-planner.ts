import type { EditOperation, EditPlan, GenerateOperation } from '../plan.ts';
import { ENCODING_OPERATIONS, readingOf, sameStepAgain, LOOKS, mendsOf, oppositeOf, OPERATIONS, regionOfStep, STRENGTHS } from '../operations/registry.ts';
import { isLightWord } from './adjustment-rules.ts';
import { REQUEST_VERBS, namesSeveral, FAULT_QUALITIES, REGION_STATES, UP, DOWN, ADJUSTMENT_VERBS, BARE_ZOOM_WORDS, TONE_FAULTS_OF_SEVERAL_MENDS, NOUNS, LIGHT_NOUNS, TINT_NOUNS, CAST_NOUNS, KEPT_WORDS, SEEN_AS_A_WHOLE, TOTALITY_WORDS, ADDING_VERBS, COMPLEMENT_VERBS, DIRECTED, HEDGES, MENDING_VERBS, LOOK_DEGREES, LOOK_GIVERS, lookKind, MAX_PART_WORDS, PART_OPENERS, REDUCED_QUALITY_HEADS, WHOLE_IMAGE, STATE_MODALS, STATE_VERBS, CROPPING_OPERATIONS, FLIP_AXES, FLIP_JOINS, FLIP_MEANS, FLIP_WORDS, GENERAL_EDIT_VERBS, WAYLESS_VERBS, MIRROR_WORDS, OBJECT_ONLY_LEADS, OBJECT_ONLY_NOUNS, PICTURE_NOUNS, regionOf, SEEING_WORDS, SIDE_NAME_WORDS, STANDING_OUT_VERBS, UNSEEN, TAKING_AWAY_VERBS, CAST_STATEMENT_WORDS, CAST_MENDING_VERBS, HAVING, FINE_AS_IT_IS, IT_FORMS, PRAISING_REPLIES } from './lexicon.ts';
import { partAndItsColors, readClause, readForm, isKnownWord } from './reading.ts';
import { isFiller, quantityOf } from './clause.ts';
import { loadDictionary } from './dictionary.ts';
import { wishCarriedOn } from './spellings.ts';
import { levelOf } from './slots.ts';
import { MAX_INSTRUCTION_CHARS } from '../operations/generative.ts';
import { defaultSuggestions, failure, isGenerative, needsModel, PromptError, tooManyGenerateSteps } from './refusal.ts';
import { cutAt, find, lettersOf, phrases, rewrite, words, wordsOf, type Phrases, type Rewrite } from './phrases.ts';
import { asksForMore, asksSomeone, BEING_OR_SEEMING, canonical, canonicalClause, foreseesAnEdit, isImperative, isNoRequest, protect, REASON_WORDS, restore, saysHowPartIs, splitAtoms, splitRunTogether, tellsAnEditDone, editToldDone, type Atom, type Protected } from './text.ts';
import { cropsOutBackground, cropsOutFace, fillsAfterRemoval, generativeRegion, isRegionStatement, readRegionEdit, regionStepsFirst, wholeFromParts } from './regions.ts';
import { coverWhole, editOfOne, type Part } from './targets.ts';
import { luminance, namedColor } from './colors.ts';
import { normalizeWords, takePhraseTargets } from './words.ts';

export { PromptError, REFUSAL_REASONS, type RefusalReason, type Suggestion } from './refusal.ts';

/** Turns a prompt into an edit plan. The built-in one is rules; a later one may ask a model. */
export interface Planner {
  readonly name: string;
  plan(prompt: string): Promise<EditPlan>;
  /** Starts what the planner runs besides the event loop (its thread), so the first prompt does not wait for it. */
  start?(): Promise<void>;
  /** Stops what the planner runs besides the event loop (its thread), if anything. */
  close?(): Promise<void>;
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
  /**
   * With a provider, the generate steps one prompt may plan (TESSERA_GENERATIVE_MAX_CALLS_PER_EDIT):
   * past it the prompt is refused as soon as it is seen, which also bounds the refusals read in
   * full for one prompt (each generate step is a clause read to its end first). Unset: maxOperations.
   */
  maxGenerateSteps?: number;
  /** Regions can be located (TESSERA_SEGMENTER is not off): "blur the background" is planned (regions.ts), not refused. */
  regions?: boolean;
}

export class RulePlanner implements Planner {
  readonly name = 'rules';
  private readonly generative: boolean;
  private readonly maxGenerateSteps: number;
  private readonly regions: boolean;

  constructor(options: RulePlannerOptions = {}) {
    this.generative = options.generative ?? false;
    this.maxGenerateSteps = options.maxGenerateSteps ?? PLANNER_LIMITS.maxOperations;
    this.regions = options.regions ?? false;
    // Read here, once, so that no request waits on it (the first refusal that names a thing would).
    loadDictionary();
  }

  async plan(prompt: string): Promise<EditPlan> {
    return this.planSync(prompt);
  }

  planSync(prompt: string): EditPlan {
    const p = protect(prompt);
    const atoms = wishesCarriedOn(sharedVerbs(doneFirst(splitAtoms(p.text)).map(bareZoomIn)));
    // Each clause is read with its neighbours: past this many, planning would take long for no
    // real request ("dark and dark and dark …").
    if (atoms.length > PLANNER_LIMITS.maxClauses) {
      throw new PromptError('limit', prompt.slice(0, 80), `The prompt has more than ${PLANNER_LIMITS.maxClauses} clauses; split it into several requests.`, []);
    }
    // "maybe sharpen, maybe blur", "perhaps crop it, perhaps pad it": requests hedged one after
    // another are offered as choices, not all asked for.
    const hedged = atoms.filter((atom) => wordsOf(atom.text.toLowerCase()).some((word, i, all) => HEDGES.has(word) && i < all.length - 1));
    if (hedged.length > 1) {
      const clause = restore(hedged.map((atom) => atom.text).join(', '), p);
      throw new PromptError('ambiguous', clause, `"${clause}" offers edits as choices ("maybe … maybe …"): say which you want.`, defaultSuggestions());
    }
    const operations: EditOperation[] = [];
    // The step a clause that only says a fault asked for ("too dark"), while it is the last one.
    let faultOp: { at: number; op: EditOperation } | undefined;
    // Clauses passed over as asides ("nice shot", "contrast na", "this is my son").
    const asides: string[] = [];
    // "its sideways": the picture said to be turned, passed over when a turn is asked beside it.
    const turnedSaid: string[] = [];
    // The steps read from faults said ("it's too dark"): a request that mends the same fault wins over them.
    const fromFaults = new Map<EditOperation, string>();
    // A request limited to what it says ("just crop it", "i only want it black and white").
    let limitedTo = false;
    // Reasons given before any request ("because it's too dark, brighten it").
    const reasonsFirst: string[] = [];
    // Each clause is read once, however many readings try it.
    const readings = new Map<string, EditOperation[] | undefined>();
    const readOnce = (text: string) => {
      // The look an edit is for may run past an "and" ("bringing out the highlights and the shadows").
      // "brighten the colours and her face": a region joined to the colours is asked, as the picture and its colours are (reading.ts).
      const ofPart = () => (this.regions && !partAndItsColors(canonicalClause(text).text.split(' ')) ? readRegionEdit(text, p) : undefined);
      if (!readings.has(text)) readings.set(text, readClause(text, p) ?? readBeforeOutcome(text, p) ?? ofPart());
      return readings.get(text);
    };
    // A clause of its own whose reason the edit gives ("brighten it to make it look washed out"):
    // the reason is no request of its own, however its words read.
    const reasons = new Map<string, EditOperation[] | undefined>();
    const readAlone = (text: string) => {
      if (!reasons.has(text)) reasons.set(text, readBeforeReason(text, p));
      return reasons.get(text) ?? readOnce(text);
    };
    for (let k = 1; k < atoms.length; k++) {
      const mended = castMended(atoms[k - 1]!, atoms[k]!, readAlone);
      if (mended) atoms.splice(k - 1, 2, mended);
    }
    for (let k = 1; k < atoms.length; k++) atoms[k] = ofTheQualitySaid(atoms[k - 1]!, atoms[k]!, readAlone);
    // "background blurry, fix it", "her face dark - fix it": a look said with no verb, then mended,
    // was the fault, not the look wanted (read as asked, the background had been blurred). Asked.
    for (let k = 1; k < atoms.length; k++) {
      const said = atoms[k - 1]!.text;
      const { flags } = canonicalClause(said);
      if (!mendsOnly(atoms[k]!.text) || asksForMore(said) || asksSomeone(said) || flags.fault || flags.statement || !readAlone(said)?.length) continue;
      const clause = restore(`${said}, ${atoms[k]!.text}`, p);
      throw new PromptError('ambiguous', clause, `"${clause}" says a look and then asks to fix it: say the edit, e.g. "sharpen the background" or "brighten her face".`, defaultSuggestions());
    }
    // (A fault that reads, "the background is too blue, warm it", is read with the clause after it.)
    if (this.regions) for (let k = 1; k < atoms.length; k++) if (readAlone(atoms[k - 1]!.text) === undefined) atoms[k] = ofThePartSaid(atoms[k - 1]!, atoms[k]!);
    // Clauses read together, unless together they are longer than one clause may be: no edit
    // needs that many words.
    const readJoined = (joined: Atom[]) => {
      // What an edit will do, told after it, is no part of it ("brighten it, this will make the colours pop").
      if (joined.slice(1).some((a) => canonicalClause(a.text).flags.outcome)) return undefined;
      // "it's grainy but i like it": a fault taken back asks for nothing; the picture kept as it is
      // is no part of any other reading.
      if (joined.slice(1).some((a) => keptAsIs(a.text))) return joined.length === 2 && isFault(joined[0]!.text) ? [] : undefined;
      // "cool pic, make it brighter": a clause of context, a remark or a negation is read with no other.
      // Nor is how the colours are said ("the colours are warm, make it brighter": read together, the
      // colours had been made brighter, a saturation).
      if (joined.some((a) => canonicalClause(a.text).flags.negated || canonicalClause(a.text).flags.aside || colorsStated(a.text))) return undefined;
      // "make it warmer, my skin looks grey in it": how a part is, said after a request, is no
      // part of it (read together, the face was made warmer and greyscale).
      // So is a part said to have a fault ("blur the background, the subject is blurry too": read
      // together, the subject was blurred as well).
      if (this.regions && joined.slice(1).some((a) => isRegionStatement(canonicalClause(a.text).text) || saysHowPartIs(a.text))) return undefined;
      // "rotate 45 degrees, it's upside down": how the picture is turned is the reason of the turn
      // asked, never part of it (read together, "upside down" overrode the angle).
      if (joined.some((a) => canonicalClause(a.text).flags.turned)) return undefined;
      // "blur the background, not darker": a look said not to be limits the edit, never joins it (read
      // together, the background had been brightened).
      // ("… but without cropping" is read together: it says how the edit is made.)
      if (joined.slice(1).some((a) => lookNotWanted(a.text) && !wordsOf(canonical(a.text)).includes('without'))) return undefined;
      // "the background, it has a green cast", "her face, a bit dark": how the picture is, said after
      // a part named alone, is no look asked for it (read together, the cast had been laid on the
      // part, the dark part darkened). A fault said so ("the background, too dark") is mended.
      // Nor after an edit ("blur the background, it's grey": read together, the background had been greyed).
      const partAlone = (text: string) => wordsOf(canonical(text)).every((word) => OBJECT_ONLY_LEADS.has(word) || (regionOf(word) ?? 'none') !== 'none');
      if (this.regions && joined.slice(1).some((a) => canonicalClause(a.text).flags.statement && (saysWhatIs(a.text) || partAlone(joined[0]!.text)))) return undefined;
      // "the background has a green cast, remove it": what is taken away after a part's fault may be
      // the fault or the part (read together, the background had been removed besides).
      const partSaid = (text: string) => wordsOf(canonical(text)).some((word) => (regionOf(word) ?? 'none') !== 'none') && !asksForMore(text) && !asksSomeone(text);
      const takesItAway = (text: string) => TAKING_AWAY_VERBS.has(wordsOf(canonical(text)).find((word) => !isFiller(word)) ?? '') && wordsOf(text.toLowerCase()).some((word) => word === 'it' || word === 'that');
      if (this.regions && joined.slice(1).some((a) => takesItAway(a.text)) && joined.slice(0, -1).some((a) => partSaid(a.text))) return undefined;
      // "blur the faces and the background and make it warmer": after two parts, "it" is neither
      // alone (read with the clause made for the second, the background had been made warmer).
      if (joined.slice(0, -1).some((a) => a.shared)) return undefined;
      // "add my brother and warm it up", "put my brother in it and brighten it": someone to add,
      // which reads as nothing alone, is content a model would paint, never the object of the verb
      // after it (read together, the brother was warmed and the adding dropped).
      const addsSomeone = (a: Atom) => {
        const said = wordsOf(canonical(a.text));
        return ADDING_VERBS.has(said[0] ?? '') && said.some((word) => regionOf(word) === 'subject') && readAlone(a.text) === undefined;
      };
      if (joined.slice(0, -1).some(addsSomeone)) return undefined;
      const text = joined.map((a) => a.text).join(' and ');
      const together = wordsOf(text).length > PLANNER_LIMITS.maxClauseWords ? undefined : readOnce(text);
      // "the background, it has a green cast": a fault said after a part named alone is mended there,
      // never the fault laid on (read together, the green had been tinted onto the background).
      // So is one said after an edit of a part ("brighten the face, it has a green cast": the face
      // had been tinted green besides).
      const fault = this.regions && joined.length === 2 && canonicalClause(joined[1]!.text).flags.fault ? readAlone(joined[1]!.text) : undefined;
      const first = fault ? (readAlone(joined[0]!.text) ?? []) : [];
      // (The fault's own step only the way it mends: "… pinker tone, it looks dull" had dulled the backdrop.)
      // After an edit of a part, the fault of "it" is laid on that part only where the edit already
      // mends it ("brighten her face, it's too dark"); a fault it does not mend ("blur the background,
      // it's too dark") may be the part's or the picture's, and is read alone (then asked).
      // After a part said to be so ("her face is too dark and it's blurry") "it" goes on being that part.
      const saidOfPart = first.length === 0 || !wordsOf(canonical(joined[0]!.text)).some(isImperative);
      const laidOn = (op: EditOperation) => (saidOfPart && fault?.some((fix) => fix.op === op.op && !oppositeWays(op, fix))) || first.some((own) => own.op === op.op);
      if (together && fault && !together.every(laidOn)) return undefined;
      return together;
    };
    for (let i = 0; i < atoms.length; ) {
      assertReadable(atoms[i]!.text, p);
      // "brighten it because it's too dark": a reason given is the fault the request before it
      // mends, accounted for by it; a reason it does not mend ("sharpen it because it's dark",
      // "make it black and white because the colours are dull") is asked about, never an edit
      // of its own.
      const [opening, ...reason] = wordsOf(atoms[i]!.text);
      if (REASON_WORDS.has(opening?.toLowerCase() ?? '') && reason.length > 0) {
        // "because it's too dark, brighten it": said first, it is checked against what follows.
        if (operations.length === 0) reasonsFirst.push(atoms[i]!.text);
        else assertReasonMended(operations, reason.join(' '), restore(atoms[i]!.text, p), readAlone);
        i += 1;
        continue;
      }
      // A clause that reads alone, followed by one that reads alone as another operation which
      // joining would not merge into this one ("rotate 90, add a border"; "warmer and slightly
      // brighter": the degree is said of one), is read alone. Otherwise (the next asks for the
      // same operation, "lighten and brighten", or does not read alone, "zoom in and crop",
      // "… in the middle, size 48px") the longest reading of clauses together wins.
      if (i > 0) assertOwnVerb(atoms[i - 1]!.text, atoms[i]!.text, p);
      if (i > 0) assertAmountOfOne(atoms[i - 1]!.text, atoms[i]!.text, p);
      if (atoms[i + 1]) assertComplement(atoms[i]!.text, p);
      let read = readAlone(atoms[i]!.text);
      // "add a border make the image 600 wide": run together, the same holds as with a comma
      // between them (read as one clause, the border was 600 pixels wide).
      if (read !== undefined) read = readApartFromWhole(atoms[i]!.text, p, readOnce) ?? read;
      if (atoms[i + 1] && !read?.length) assertMadeSomething(atoms[i]!.text, atoms[i + 1]!.text, p, readOnce);
      let used = 1;
      const next = atoms[i + 1] && readAlone(atoms[i + 1]!.text);
      // "blur, darken and desaturate the background": verbs alone listed before the clause that
      // names a region are of that region, read together (not the first alone of the whole picture).
      const listed = atoms[i + 1] !== undefined ? listedBeforeRegion(atoms.slice(i, i + MAX_JOIN), readAlone, readJoined) : undefined;
      if (listed) [read, used] = listed;
      // Two clauses of the same operations are read together ("lighten and brighten"), unless
      // together they turn one of them the other way ("the colours are dull, make the colours
      // brighter" had read as duller and brighter): then each alone, the two one look (sameLook).
      const pair = read !== undefined && next !== undefined ? readJoined(atoms.slice(i, i + 2)) : undefined;
      const turned = (op: EditOperation) => read!.some((own) => oppositeWays(own, op));
      // Nor when a fault and its fix together ask for a look neither asks alone ("the colours are
      // faded, make them pop": read together, "faded" was a faded look wanted, less contrast).
      const invented = (op: EditOperation) => ![...read!, ...next!].some((own) => own.op === op.op);
      const faultAndFix = atoms[i + 1] !== undefined && (isFault(atoms[i]!.text) || isFault(atoms[i + 1]!.text));
      const sameApart = read !== undefined && next !== undefined && sameOperations(read, next) && pair !== undefined && (pair.some(turned) || (faultAndFix && pair.some(invented)));
      // "… and warm everything up": the whole picture said is no part of a region or a border before.
      const nextWhole = wholeSaidAfter(read, next, atoms[i + 1]?.text);
      // "sepia, blur the background", "black and white and blur the background": a look named with
      // no verb of its own is the whole picture's; only a verb shares the part the next clause
      // names ("brighten and blur the background").
      const lookBesidePart = read !== undefined && next !== undefined && read.length > 0 && read.every((op) => regionOfStep(op) === undefined) && next.some((op) => regionOfStep(op) !== undefined) && !startsWithVerb(atoms[i]!.text);
      // "change the brightness by 10% and reduce the contrast": a quality changed with no way said
      // is asked, never given the way of the verb after it (read together, both went down).
      // "adjust the colours and make them warmer" is one edit, the way said after it.
      const waylessJoined = read === undefined && next !== undefined && WAYLESS_VERBS.has(wordsOf(canonical(atoms[i]!.text))[0] ?? '') ? readJoined(atoms.slice(i, i + 2)) : undefined;
      const wayless = waylessJoined !== undefined && waylessJoined.length > next!.length;
      const alone = listed !== undefined || sameApart || nextWhole || lookBesidePart || wayless || (read !== undefined && next !== undefined && !sameOperations(read, next) && !mergesInto(pair, read, next, [isFault(atoms[i]!.text), isFault(atoms[i + 1]!.text)]));
      if (!alone) {
        for (let n = Math.min(MAX_JOIN, atoms.length - i); n >= 2; n--) {
          const joined = readJoined(atoms.slice(i, i + n));
          if (joined) {
            [read, used] = [withoutFaultMended(joined, read, faultThenRequest(atoms.slice(i, i + n), read) ? atoms[i]!.text : undefined), n];
            break;
          }
        }
      }
      // "crop and | zoom in on her make her black and white", "remove the black background and |
      // replace it with white add a filter": a clause that reads with the start of the next one,
      // which runs on into more requests without punctuation, when the two would not read otherwise.
      const runOn = used === 1 && next === undefined && atoms[i + 1] ? readIntoRunOn(atoms[i]!.text, atoms[i + 1]!.text, p, readOnce) : undefined;
      if (runOn && (!read || !readPieces(splitRunTogether(atoms[i + 1]!.text), p, readOnce))) [read, used] = [runOn, 2];
      // Requests run together without punctuation ("make it darker make the colours pop"), or
      // with a reason or an emphasis after the edit.
      // (Not a remark as a whole: "flipping it would make the text backwards" is no "flipping" asked.)
      const remark = foreseesAnEdit(atoms[i]!.text);
      read ??= (remark ? undefined : readPieces(splitRunTogether(atoms[i]!.text), p, readOnce)) ?? readBeforeReason(atoms[i]!.text, p) ?? readWithAdded(atoms[i]!.text, readOnce);
      // "invert it so the background is black | and the lettering is white": a look stated after
      // a stated reason is more of that reason, when the edit before gives it too.
      if (!read && i > 0 && statedAfterReason(atoms[i - 1]!.text, atoms[i]!.text, p)) read = [];
      // "add contrast, it will lighten her up": what the edits before will do, foreseen, is why
      // they are asked; the clause is accounted for, and asks for nothing of its own.
      if (!read && operations.length > 0 && canonicalClause(atoms[i]!.text).flags.outcome) read = [];
      // "this is a photo of my dog, make it brighter", "nice shot, brighten it": context or a
      // remark beside a request is accounted for and passed over (alone, it is refused).
      // "the background is distracting, blur it", "blur the background, it's too busy": how a part
      // is, said beside an edit of that part, is why it is asked (alone, it is refused).
      if (!read && this.regions && reasonOfPartEdit(atoms[i]!.text, operations.at(-1), atoms[i + 1] && readAlone(atoms[i + 1]!.text))) read = [];
      if (!read && (operations.length > 0 || i + 1 < atoms.length) && canonicalClause(atoms[i]!.text).flags.aside) {
        read = [];
        asides.push(atoms[i]!.text);
      }
      // "please edit the image and make it black and white", "rotate it, modify the photo": a
      // clause that says only that the picture is to be edited frames the requests beside it
      // (alone, or beside none, it asks for nothing and is refused).
      // Said first, the next clause has a verb of its own: "change the image and the background to
      // white" shares the verb, and is no frame.
      const framesNext = i + 1 < atoms.length && startsWithVerb(atoms[i + 1]!.text);
      // "blur the background, but not the face": a part said not to be edited, beside an edit of
      // another part, says only where that edit is not; accounted for.
      if (!read && negatedPartBeside(atoms[i]!.text, operations.at(-1))) read = [];
      if (!read && (operations.length > 0 || framesNext) && editsOnlyThePicture(atoms[i]!.text, operations.length > 0)) read = [];
      // "it's too dark, fix it", "it has a blue cast, can you correct it": a mending verb with only
      // the picture after a fault said asks for that fault's fix, read from the fault.
      if (!read && faultOp !== undefined && operations[faultOp.at] === faultOp.op && mendsSaid(atoms[i]!.text, faultOp.op)) read = [];
      // "make it warmer, like golden hour": a look compared after the edit is its reason, read as
      // with no comma (the same checks: no amount, no other look, no part named).
      if (!read && i > 0 && operations.length > 0 && wordsOf(canonical(atoms[i]!.text))[0] === 'like' && readBeforeReason(`${atoms[i - 1]!.text} ${atoms[i]!.text}`, p)?.length) read = [];
      // "its sideways, can u rotate it left 90", "rotate it 180, it's upside down": the picture said
      // to be turned is the reason of a turn asked beside it (checked once all is read).
      if (!read && atoms.length > 1 && canonicalClause(atoms[i]!.text).flags.turned) {
        read = [];
        turnedSaid.push(atoms[i]!.text);
      }
      // "this is me and my sister, blur her", "thanks for blurring the background, blur it more":
      // a pronoun that may stand for someone or something an aside named is asked about.
      if (read && read.length > 0) assertPronounOfAside(asides, atoms[i]!.text, p);
      // "lighten the background, lighten the people": one edit of each part of the picture.
      // Not of a part said to be so ("blur the background, the subject is blurry too").
      const ofParts = !listed && (!read || read.every((op) => regionOfStep(op))) && atoms[i + 1] && !saysHowPartIs(atoms[i + 1]!.text) ? readOfParts([atoms[i]!.text, atoms[i + 1]!.text], p) : undefined;
      if (ofParts) [read, used] = [ofParts, 2];
      if (!read) {
        const error = failure(atoms[i]!.text, p, { regions: this.regions });
        if (!this.generative) throw error.kind === 'generative' ? error : (needsModelLater(atoms.slice(i + 1), p, readOnce, this.regions) ?? error);
        if (error.kind !== 'generative') throw error;
        [read, used] = [[{ op: 'generate', instruction: error.clause, ...(this.regions ? generativeRegion(atoms[i]!.text) : {}) }], 1];
      }
      // "warmer, not brighter", "not sharper, just brighter", "add contrast, without darkening": a
      // look said not to be, beside edits of another quality, is a limit on them (brightness is
      // not to rise), never the opposite edit; beside the same quality ("brighter, not darker") it
      // says that edit again.
      const others = operations.length > 0 || i + used < atoms.length;
      // "brighten it, without cropping": an edit said not to be done alone is no edit either.
      const without = wordsOf(canonical(atoms[i]!.text))[0] === 'without';
      // "without blurring the background": an edit of a part said not to be done, alone, asks for
      // nothing (read as its opposite, the background had been sharpened). Beside other edits it
      // is left to the readings before ("blur it, without blurring my face" is asked about).
      const withoutPart = without && read.some((op) => regionOfStep(op) !== undefined);
      // ("make her face brighter, not darker": the look said again the other way round, dropped too;
      // it had brightened the whole picture besides.)
      if (read.length > 0 && others && lookNotWanted(atoms[i]!.text) && read.every((op) => (without || LOOKS.has(op.op)) && !operations.some((done) => done.op === op.op && (without || oppositeWays(done, op))))) read = [];
      // "not darker" alone: what it should not be, not what it should; the opposite is a guess.
      if (read.length > 0 && !others && (lookNotWanted(atoms[i]!.text) || withoutPart)) {
        const clause = restore(atoms[i]!.text, p);
        throw new PromptError('negation', clause, `"${clause}" says what the picture should not be, not what to do: say the edit, e.g. "make it brighter".`, defaultSuggestions());
      }
      // "make it sharper, like a mirror", "make it bigger, like a poster": a thing the picture is
      // compared with after a request says how it should look, never an edit of its own (read
      // alone, "like a mirror" mirrored it); the same edit again is only said twice.
      if (operations.length > 0 && wordsOf(atoms[i]!.text.toLowerCase())[0] === 'like' && read.some((op) => !operations.some((done) => done.op === op.op))) {
        const clause = restore(atoms[i]!.text, p);
        throw new PromptError('ambiguous', clause, `"${clause}" compares the picture with something, which names no edit of its own: say the edit itself.`, defaultSuggestions());
      }
      assertOfWhatCameBefore(operations.at(-1), read, atoms[i]!.text, p);
      assertTintInsteadOfCast(operations, fromFaults, read, atoms[i]!.text, p);
      assertNoTextOutline(read, atoms[i]!.text, p);
      assertNoUnsureReading(read, atoms.slice(i, i + used).map((atom) => atom.text).join(' '), p);
      assertItMeant(operations.at(-1), read, atoms[i]!.text, p);
      for (const atom of atoms.slice(i, i + used)) assertStandingOutMeant(read, atom.text, p);
      read = textOnAddedCanvas(operations.at(-1), read, atoms[i]!.text);
      // "crop to the dog and the cat", "blur the man and the woman": a second part that is the same
      // region gets the same step once (the subject's mask holds both; it had been cropped twice).
      if (atoms[i]!.shared && read.length > 0 && JSON.stringify(read) === JSON.stringify(operations.slice(-read.length))) read = [];
      // "too dark, brighten her face", "my mom looks dark, brighten the photo": a fault said first
      // and then fixed by the next clause is that fix's reason, one edit (where the fix says).
      const faultBefore = faultOp !== undefined && operations[faultOp.at] === faultOp.op ? faultOp : undefined;
      // (Not by another fault: "i'd love her face brighter, it's a bit dark" had lost her face.)
      if (faultBefore && read.length === 1 && read[0]!.op === faultBefore.op.op && !regionOfStep(read[0]!) !== !regionOfStep(faultBefore.op) && !isFault(atoms[i]!.text)) operations.splice(faultBefore.at, 1);
      // A fault is said with no verb of asking ("too dark", "my mom looks dark").
      // A generate step is what its clause asks, whatever fault the clause also says ("too much
      // yellow open his eyes"): no fix another step could stand for (taken as one, it was dropped
      // beside another generate step as mended by it).
      // (Not one put to someone: "can you clear up his skin" asks, whatever its verb.)
      const saidFault = !read.some((op) => op.op === 'generate') && (isFault(atoms[i]!.text) || (read.length === 1 && regionOfStep(read[0]!) !== undefined && !asksForMore(atoms[i]!.text) && !asksSomeone(atoms[i]!.text)));
      faultOp = read.length === 1 && used === 1 && saidFault ? { at: operations.length, op: read[0]! } : undefined;
      const readNow: EditOperation[] = [];
      for (const op of read) {
        const inRow = sameLook(operations.at(-1), op) ?? sizeOfScale(operations.at(-1), op) ?? paddedAgain(operations.at(-1), op, atoms[i]!.text) ?? sameStepAgain(operations.at(-1), op);
        const once = inRow ? { at: operations.length - 1, op: inRow } : askedAgainEarlier(operations, op);
        // A step merged with a request's is the request's; merged with a fault's, a fault's.
        const faultBeforeMerge = once !== undefined && fromFaults.delete(operations[once.at]!);
        if (once) operations[once.at] = once.op;
        else operations.push(op);
        if (once) fromFaults.delete(once.op);
        if (once ? faultBeforeMerge && used === 1 && saidFault : used === 1 && saidFault) fromFaults.set(once?.op ?? op, atoms[i]!.text);
        readNow.push(once?.op ?? op);
      }
      // "more contrast on just him, darken the background": the clause that limits the request is
      // itself asked, never a fault the limit drops (with no verb, its step had been read as a
      // fault's and, limited, dropped: nothing of it was done, and nothing said so).
      if (read.length > 0 && atoms.slice(i, i + used).some((atom) => !isFault(atom.text) && wordsOf(atom.text.toLowerCase()).some((word) => LIMITING_WORDS.has(word)))) {
        limitedTo = true;
        for (const op of readNow) fromFaults.delete(op);
      }
      const painted = operations.filter((op): op is GenerateOperation => op.op === 'generate');
      if (painted.length > this.maxGenerateSteps) throw tooManyGenerateSteps(this.maxGenerateSteps, painted[this.maxGenerateSteps]!.instruction);
      if (operations.length > PLANNER_LIMITS.maxOperations) {
        throw new PromptError('limit', prompt.slice(0, 80), `The prompt asks for more than ${PLANNER_LIMITS.maxOperations} edits; split it into several requests.`, []);
      }
      i += used;
    }
    // "it's dark and grainy, brighten it and remove the noise", "sharpen it, it's a bit blurry",
    // "too much magenta, fix the colour balance": a fault said and a request that mends it (the
    // same fault, of the same part of the picture) are one edit, the request's, wherever each stands.
    // The whole picture mended mends each part of it too ("make it brighter, the background is too
    // dark": the background brightened twice). "it's dark, just crop it square", "it's blurry, i
    // only want it black and white": with the request limited to what it says, the faults said
    // are why, not more edits.
    const covers = (other: EditOperation, fault: EditOperation) => regionOfStep(other) === regionOfStep(fault) || regionOfStep(other) === undefined;
    // Two steps touch the same pixels when either is of the whole picture or both of one part
    // ("brighten the background its too bright": the picture darkened, its background brightened).
    const overlaps = (a: EditOperation, b: EditOperation) => regionOfStep(a) === undefined || regionOfStep(b) === undefined || regionOfStep(a) === regionOfStep(b);
    // One operation's two ways ("brighter" against the fix of "too bright", a darkening).
    const sameOpposite = (a: EditOperation, b: EditOperation) => oppositeWays(a, b) && offsetOf(a) !== 0;
    // "sharpen it, it's too sharp", "it's too blurry, blur it": a request that undoes what the fault
    // said beside it mends contradicts it, as opposite ways of one look do (sameLook).
    for (const [fault, said] of fromFaults) {
      const undone = operations.find((other) => !fromFaults.has(other) && (oppositeOf(other) === fault.op || sameOpposite(other, fault)) && overlaps(other, fault));
      if (undone) {
        const clause = restore(said, p);
        throw new PromptError('ambiguous', clause, `"${clause}" says a fault that the ${undone.op} asked beside it makes worse: say which you want.`, defaultSuggestions());
      }
    }
    for (const said of reasonsFirst) assertReasonMended(operations, wordsOf(said).slice(1).join(' '), restore(said, p), readAlone);
    // "brighten her face, it is pretty dark": a fault said of "it" beside the mend of a part is that
    // part's (the whole picture had been brightened too); "the whole photo is dark" is the picture's.
    const ofThePart = (other: EditOperation, fault: EditOperation, said: string) =>
      regionOfStep(fault) === undefined && regionOfStep(other) !== undefined && !saysWholePicture(said) && !wordsOf(canonical(said)).some((word) => PICTURE_NOUNS.has(word) || WHOLE_IMAGE.has(word));
    // "it's a bit blurry and grainy but i love it": faults taken back by the picture kept as it is
    // ask for nothing, however many were said (two of them had been sharpened).
    // ("it's blurry, love it", "it's faded, perfect": the fault praised is the look kept.)
    const liked = atoms.some((atom, k) => keptAsIs(atom.text) || (PRAISING_REPLIES.has(canonicalAsSaid(atom.text)) && atoms.slice(0, k).some((before) => isFault(before.text))));
    const mended = (fault: EditOperation, said: string) => limitedTo || liked || operations.some((other) => !fromFaults.has(other) && mendsSameFault(other, fault, said) && (covers(other, fault) || ofThePart(other, fault, said)));
    // "make the background pink, it looks dull": a fault of "it" beside an edit of a part, which no
    // step mends, may be the part's or the picture's: asked (the whole picture had been made vivid).
    for (const op of operations) {
      const said = fromFaults.get(op);
      if (said === undefined || regionOfStep(op) !== undefined || mended(op, said) || !wordsOf(said.toLowerCase()).slice(0, 3).some((word) => IT_FORMS.has(word))) continue;
      const at = operations.indexOf(op);
      if (!operations.slice(0, at).some((other) => regionOfStep(other) !== undefined) || saysWholePicture(said) || saysWholePicture(canonical(said))) continue;
      const clause = restore(said, p);
      throw new PromptError('ambiguous', clause, `"${clause}" says a fault of "it" beside an edit of a part: say whether the part or the whole picture is meant, e.g. "the background looks dull" or "the whole photo looks dull".`, defaultSuggestions());
    }
    operations.splice(0, operations.length, ...operations.filter((op) => !fromFaults.has(op) || !mended(op, fromFaults.get(op)!)));
    // "it's too dark, my friend brightened it": a fault said beside an edit told as done may be mended
    // already (read, it had been brightened again): asked.
    const toldDone = asides.find(tellsAnEditDone);
    if (toldDone !== undefined && operations.some((op) => fromFaults.has(op))) {
      const clause = restore(toldDone, p);
      throw new PromptError('ambiguous', clause, `"${clause}" tells an edit already made beside a fault: say the edit you want now, e.g. "brighten it more".`, defaultSuggestions());
    }
    // "brighten it, but i already did", "zoom in a little, my friend zoomed in": the edit asked,
    // told as done already, may need no doing: asked.
    for (const aside of asides) {
      const told = editToldDone(aside);
      if (told === undefined) continue;
      const verb = told.split(' ')[0]!;
      const askedToo = atoms.some((atom) => atom.text !== aside && wordsOf(canonical(atom.text)).includes(verb));
      const again = told === '' ? wordsOf(aside.toLowerCase()).includes('already') : askedToo || (readAlone(told) ?? []).some((done) => operations.some((op) => op.op === done.op));
      if (!again) continue;
      const clause = restore(aside, p);
      throw new PromptError('ambiguous', clause, `"${clause}" tells the edit asked as done already: say the edit you want now, e.g. "brighten it more".`, defaultSuggestions());
    }
    // "it's upside down, turn it right side up": the flip top to bottom rights what is upside down.
    const rights = (op: EditOperation) => mendsOf(op) === mendsOf({ op: 'rotate' }) || (op.op === 'flip' && turnedSaid.every((said) => wordsOf(said.toLowerCase()).includes('upside')));
    if (turnedSaid.length > 0 && !operations.some(rights)) throw failure(turnedSaid[0]!, p, { regions: this.regions });
    assertNotUndone(operations, prompt);
    assertOneSubject(operations, prompt);
    assertKeptUnchanged(asides, operations, p);
    assertPartSaidFine(asides, operations, p);
    assertCanvasColorMeant(operations, prompt);
    if (this.regions) operations.splice(0, operations.length, ...regionStepsFirst(fillsAfterRemoval(wholeFromParts(operations))));
    operations.splice(0, operations.length, ...tonesBeforePaint(operations));
    assertNotCovered(operations, prompt);
    assertFillAlone(operations, prompt);
    assertFlipMeant(operations, prompt);
    assertTextsApart(operations, prompt);
    assertLighterMeant(operations, prompt);
    if (operations.length === 0) {
      throw new PromptError('not_understood', prompt, 'The prompt asks for no edit. Describe what to change, e.g. "rotate 90 degrees and make it black and white".', defaultSuggestions());
    }
    return { operations: oneCallPerRun(operations) };
  }
}

/**
 * "remove the person from behind and his hand", "remove the man, but keep his hat": generate steps
 * one after another, of one region (or of none), are one step and one provider call, their
 * clauses as written, each apart after a semicolon (a comma let "if you can remove the sign" read
 * as a condition on the next), up to the longest instruction: one request does not pay twice, and
 * the model sees the whole of it, not "his hand" alone. Done once the plan is read and checked, so
 * that every clause was read, limited and counted as its own.
 */
function oneCallPerRun(operations: readonly EditOperation[]): EditOperation[] {
  const out: EditOperation[] = [];
  for (const op of operations) {
    const before = out.at(-1);
    if (op.op === 'generate' && before?.op === 'generate' && regionOfStep(before) === regionOfStep(op)) {
      const instruction = `${before.instruction}; ${op.instruction}`;
      if (instruction.length <= MAX_INSTRUCTION_CHARS) {
        out[out.length - 1] = { ...before, instruction };
        continue;
      }
    }
    out.push(op);
  }
  return out;
}

/** One operation of strength, the two of them going opposite ways from neutral. */
const oppositeWays = (a: EditOperation, b: EditOperation) => a.op === b.op && STRENGTHS[a.op] !== undefined && Math.sign(offsetOf(a)) === -Math.sign(offsetOf(b));

/** Whether a step asked mends the fault a step stands for, the same way ("brighter" mends "too dark", not "too bright"). */
const mendsTheWay = (asked: EditOperation, fix: EditOperation) =>
  mendsOf(asked) === mendsOf(fix) &&
  // Of the same part, or of the whole picture ("brighten the background because my face is too dark" mends nothing of the face).
  (regionOfStep(asked) === undefined || regionOfStep(asked) === regionOfStep(fix)) &&
  (asked.op !== fix.op || STRENGTHS[fix.op] === undefined || Math.sign(offsetOf(asked)) === Math.sign(offsetOf(fix)));

/** Words that name all of the picture beside a request ("brighter overall", "warm everything up"). */
const WHOLE_PICTURE_WORDS: ReadonlySet<string> = new Set([...TOTALITY_WORDS, 'everything', 'throughout', 'globally']);
/** "a whole lot brighter" is a degree, not the picture. */
/**
 * The whole picture said in the clause after one that edits a region, a text, a watermark or a
 * border is no part of that edit: "blur the background, brighter overall" (read together, the
 * background had been brightened); "add a border and make the image 800 pixels wide" (the border
 * had been 800 pixels wide). "… and make the image border blue": the picture's own border is the
 * one just added.
 */
function wholeSaidAfter(read: readonly EditOperation[] | undefined, next: readonly EditOperation[] | undefined, nextText: string | undefined): boolean {
  if (read === undefined || next === undefined || nextText === undefined) return false;
  if (read.some((op) => regionOfStep(op) !== undefined) && saysWholePicture(nextText)) return true;
  return read.some((op) => BINDING_STEPS.has(op.op) && !next.some((again) => again.op === op.op)) && (saysWholePicture(nextText) || wordsOf(nextText.toLowerCase()).some((word) => WHOLE_IMAGE.has(word)));
}

/** A clause of requests run together without punctuation, read apart where `wholeSaidAfter` keeps them apart. */
function readApartFromWhole(text: string, p: Protected, readOnce: (text: string) => EditOperation[] | undefined): EditOperation[] | undefined {
  const pieces = splitRunTogether(text);
  if (pieces.length < 2 || !pieces.some((piece, k) => k > 0 && wholeSaidAfter(readOnce(pieces[k - 1]!), readOnce(piece), piece))) return undefined;
  return readPieces(pieces, p, readOnce);
}

const saysWholePicture = (atom: string) => wordsOf(atom.toLowerCase()).some((word, i, all) => WHOLE_PICTURE_WORDS.has(word) && !(word === 'whole' && all[i - 1] === 'a'));

/** A reason given after a request must be a fault that request mends (see its caller). */
function assertReasonMended(operations: readonly EditOperation[], reason: string, clause: string, read: (text: string) => EditOperation[] | undefined): void {
  const fixes = read(reason);
  if (operations.length > 0 && fixes !== undefined && fixes.length > 0 && fixes.every((fix) => operations.some((asked) => mendsTheWay(asked, fix)))) return;
  throw new PromptError('ambiguous', clause, `"${clause}" gives a reason that the edit asked before it does not answer: say the edit you want for it, or leave the reason out.`, defaultSuggestions());
}

/**
 * "darken the background and the edges", "blur the background and the noise": a clause of only
 * "the" and an edit's noun is the object of the verb before it, which does not add: darkening
 * the edges (a vignette?) or detecting them, blurring the noise or adding grain, is asked about.
 */
function assertOwnVerb(before: string, atom: string, p: Protected): void {
  // ("… but not the face" says where the edit is not: negatedPartBeside.)
  if (canonicalClause(atom).flags.negated) return;
  const words = canonical(atom).split(' ').filter(Boolean);
  const earlier = canonical(before).split(' ');
  // "blur the background and the image": the picture beside a region is edited too, or only the region is meant.
  const regional = earlier.some((word) => regionOf(word) !== undefined);
  const nouns = regional ? new Set([...OBJECT_ONLY_NOUNS, ...PICTURE_NOUNS]) : OBJECT_ONLY_NOUNS;
  // "… and the whole photo": the picture said as all of it is the picture too.
  const named = words.slice(1).filter((word) => !(regional && TOTALITY_WORDS.has(word)));
  // "blur the faces and the background and make it warmer": a second part of the picture after
  // an edit of one is that verb's object too, never the subject of the clause after it (read with
  // it, the background had been made warmer).
  const secondPart = regional && named.length > 0 && named.every((word) => regionOf(word) !== undefined && regionOf(word) !== 'none');
  if (words.length < 2 || !OBJECT_ONLY_LEADS.has(words[0]!) || named.length === 0 || !(secondPart || named.every((word) => nouns.has(word)))) return;
  if (earlier.some((word) => ADDING_VERBS.has(word))) return;
  const [clause, verb] = [restore(atom, p), restore(before, p)];
  // The example repeats the verb for a part ("… and blur the background"); for an edit's noun, one of its own.
  const example = secondPart ? `"${verb} and ${wordsOf(verb)[0]} ${clause}"` : '"add a border", "add a vignette"';
  throw new PromptError('ambiguous', clause, `"${clause}" has no verb of its own after "${verb}": say whether it gets the same edit or is an edit of its own, e.g. ${example}.`, defaultSuggestions());
}

/** A quality that completes a verb of making, to tell whether only its object was said. */
const MADE_PROBE = 'brighter';
/**
 * "make the photo of my wife and blur the dog", "make it and rotate it": a verb that needs what its
 * object is made, with no edit of its own, before a clause with a verb of its own: what it is made
 * is not said (it is no filler to drop).
 */
function assertMadeSomething(atom: string, next: string, p: Protected, readOnce: (text: string) => EditOperation[] | undefined): void {
  const words = canonical(atom).split(' ').filter(Boolean);
  if (!COMPLEMENT_VERBS.has(words[0] ?? '') || !asksForMore(wordsOf(next)[0] ?? '')) return;
  // Only its object is said: with a quality added it would read ("make the photo of my wife brighter").
  if (!readOnce(`${atom} ${MADE_PROBE}`)?.length) return;
  const clause = restore(atom, p);
  throw new PromptError('ambiguous', clause, `"${clause}" says what is made something, not what: say the edit of it, e.g. "make it brighter".`, defaultSuggestions());
}

/**
 * "make the border and the background white", "make the edges and the background darker": "make"
 * and an edit's noun with "the", before more, is the first of two things made something (what,
 * comes after), not that edit made anew ("make a border" is).
 */
function assertComplement(atom: string, p: Protected): void {
  const words = canonical(atom).split(' ').filter(Boolean);
  if (words.length < 3 || !COMPLEMENT_VERBS.has(words[0]!) || !OBJECT_ONLY_LEADS.has(words[1]!) || !words.slice(2).every((word) => OBJECT_ONLY_NOUNS.has(word))) return;
  const clause = restore(atom, p);
  throw new PromptError('ambiguous', clause, `"${clause}" says what is made something, not what: say the edit of it, e.g. "make the border white", or "add a border".`, defaultSuggestions());
}

/**
 * "make the background blue and white", "swap the blue and the red in the background", "make the
 * background black and white and blue": a plain fill of a region after another edit of it covers
 * that edit: two colours, a swap or a pattern may be meant. Asked about.
 */
function assertFillAlone(operations: EditOperation[], prompt: string): void {
  for (const [k, op] of operations.entries()) {
    if (op.op !== 'fill') continue;
    const covered = operations.slice(0, k).find((before) => regionOfStep(before) === op.region && before.op !== 'remove_background');
    if (covered) {
      throw new PromptError('ambiguous', prompt.slice(0, 80), `The ${op.region} is filled with one plain colour after another edit of it (${covered.op}), which the fill would cover: say the one colour or edit you want.`, []);
    }
    // "make the background white, make it pop", "… and blur it": an edit of a plain fill changes
    // nothing worth asking (a white wall blurred is a white wall); "it" is as likely the picture.
    const after = operations.slice(k + 1).find((later) => regionOfStep(later) === op.region && later.op !== 'fill');
    if (after) {
      throw new PromptError('ambiguous', prompt.slice(0, 80), `The ${op.region} is filled with one plain colour and then given another edit (${after.op}), which a plain colour hardly shows: say whether that edit is of the whole picture ("make the image …").`, []);
    }
  }
}

/** Steps that add canvas around the picture (or in its corners), which a background colour may be meant for. */
const addsCanvas = (op: EditOperation): boolean => op.op === 'pad' || op.op === 'pad_aspect' || (op.op === 'rotate' && op.degrees % 90 !== 0);

/**
 * "pad it and make the background black", "rotate 30, white background", "zoom out and make the
 * background transparent": beside a step that adds canvas, "the background" is as likely the new
 * canvas as the scene behind the subject, and where the canvas gets another colour than the
 * background the two images differ wholly: asked. Read in the order said, before region steps are
 * moved first.
 */
function assertCanvasColorMeant(operations: EditOperation[], prompt: string): void {
  const at = operations.findIndex(addsCanvas);
  const canvas = operations[at];
  // Taken away before the canvas is asked for ("remove the background and pad it"), it is the scene's.
  const ofBackground = operations.find((op, i) => regionOfStep(op) === 'background' && (op.op === 'fill' || (op.op === 'remove_background' && i > at)));
  if (!canvas || !ofBackground) return;
  // The same colour for both ("zoom out and make the background completely white": the new
  // canvas is white by default) is one picture whichever is meant.
  const canvasColor = 'background' in canvas ? canvas.background : undefined;
  const fillColor = ofBackground.op === 'fill' ? ofBackground.color : { r: 0, g: 0, b: 0, alpha: 0 };
  const same = canvasColor !== undefined && (canvasColor.alpha === 0 && fillColor.alpha === 0 || (canvasColor.r === fillColor.r && canvasColor.g === fillColor.g && canvasColor.b === fillColor.b && canvasColor.alpha === fillColor.alpha));
  if (!same) {
    throw new PromptError('ambiguous', prompt.slice(0, 80), `"the background" beside the ${canvas.op} may be the canvas it adds or the scene behind the subject: say "${canvas.op === 'rotate' ? 'rotate it and fill the corners with black' : 'pad it with black'}" for the canvas, or the background's edit alone.`, []);
  }
}

/** Comparatives of size, beside the adjustments' own (lexicon DIRECTED). */
const SIZE_COMPARATIVES: ReadonlySet<string> = new Set(['bigger', 'smaller', 'larger']);

/**
 * A clause that is only a comparative and its amount ("20% brighter", "brighter by 20%",
 * "warmer"): where the amount stands, before or after the comparative, or none.
 */
function comparativeAmount(atom: string): 'before' | 'after' | 'none' | undefined {
  const words = canonical(atom).split(' ').filter((word) => word !== '' && !isFiller(word) && word !== 'less');
  const at = words.findIndex((word) => DIRECTED[word] !== undefined || SIZE_COMPARATIVES.has(word));
  if (at < 0 || words.some((word, i) => i !== at && !isAmount(word))) return undefined;
  return words.length === 1 ? 'none' : isAmount(words[0]!) ? 'before' : 'after';
}
const isAmount = (word: string) => quantityOf(word)?.unit === '%' || quantityOf(word)?.unit === 'x';

/**
 * "make it brighter and warmer by 20%", "make it 20% brighter and warmer": an amount said once
 * beside two comparatives may be of one or of both (it had been of the one beside it, the other
 * the default step, or a doubling of the size). Asked; "warmer and 20% brighter" is clear.
 */
function assertAmountOfOne(before: string, atom: string, p: Protected): void {
  const [first, second] = [comparativeAmount(before), comparativeAmount(atom)];
  if (!((first === 'none' && second === 'after') || (first === 'before' && second === 'none'))) return;
  const clause = `${restore(before, p)} and ${restore(atom, p)}`;
  throw new PromptError('ambiguous', clause, `"${clause}" says one amount beside two changes: say it of each, e.g. "20% brighter and 20% warmer", or "20% brighter and a little warmer".`, defaultSuggestions());
}

/** Things added with a colour of their own, and the edits a colour named makes of the picture. */
const COLORED_ADDITIONS: ReadonlySet<string> = new Set(['border', 'pad', 'pad_to', 'pad_aspect', 'text']);
const COLORINGS: ReadonlySet<string> = new Set(['tint', 'grayscale', 'sepia', 'duotone', 'color_balance', 'fill']);

/**
 * "add a white border and make it red", "pad it with white and make it grey": after a thing added
 * with a colour, "it" coloured, or "the colour" changed, may be that thing or the picture (it had
 * tinted the picture). Asked.
 */
function assertItMeant(last: EditOperation | undefined, read: EditOperation[], atom: string, p: Protected): void {
  if (!last || !COLORED_ADDITIONS.has(last.op) || read.length !== 1) return;
  const words = lettersOf(canonical(atom));
  // "add a red border and make the colour brighter": the one colour said after a thing added
  // with one may be that thing's (read as the picture's, it had saturated the picture).
  const itsColor = words.includes('color') && !words.includes('colors') && !words.some((word) => WHOLE_IMAGE.has(word));
  if (!itsColor && (!COLORINGS.has(read[0]!.op) || !words.includes('it') || !words.some((word) => namedColor(word) !== undefined))) return;
  const clause = restore(atom, p);
  throw new PromptError('ambiguous', clause, `"${clause}" may colour the ${last.op === 'text' ? 'text' : last.op === 'border' ? 'border' : 'added canvas'} or the picture: say which, e.g. "add a red border" or "tint the picture red".`, defaultSuggestions());
}

/**
 * "add more white space at the top and write "hi" in it": words put "in it" or "there" right after
 * canvas added at one side go on that canvas (they had gone at the bottom), in a colour that shows
 * on it when none is said (white words on white canvas were not seen).
 */
function textOnAddedCanvas(last: EditOperation | undefined, read: EditOperation[], atom: string): EditOperation[] {
  if (last?.op !== 'pad' || read.length !== 1 || read[0]!.op !== 'text') return read;
  const sides = (['top', 'right', 'bottom', 'left'] as const).filter((side) => last[side].value > 0);
  const words = lettersOf(canonical(atom));
  const there = words.some((word, i) => word === 'there' || (word === 'it' && CANVAS_PLACES.has(words[i - 1] ?? '')));
  if (sides.length !== 1 || !there || words.some((word) => TEXT_PLACE_WORDS.has(word))) return read;
  const text = read[0]!;
  const saidColor = words.some((word) => namedColor(word) !== undefined);
  const shows = saidColor ? text.color : luminance(last.background) > 127 ? { r: 0, g: 0, b: 0, alpha: 1 } : { r: 255, g: 255, b: 255, alpha: 1 };
  return [{ ...text, position: sides[0]!, color: shows }];
}
/** Words that put what is written in a thing just added ("in it", "on it", "inside it"). */
const CANVAS_PLACES: ReadonlySet<string> = new Set(['in', 'on', 'inside', 'into', 'onto']);
/** Words of a place for text, said: then the place said stands. */
const TEXT_PLACE_WORDS: ReadonlySet<string> = new Set([...SIDE_NAME_WORDS, 'center', 'centre', 'middle', 'corner', 'upper', 'lower']);

/** "mirror and flip", "flip and mirror it": a bare flip beside a mirror may be the vertical one: asked about. */
function assertFlipMeant(operations: EditOperation[], prompt: string): void {
  const words = lettersOf(prompt);
  // "flip it and turn it upside down": a bare "flip" (a mirror) beside a flip top to bottom said
  // otherwise is the same flip said twice, or both: asked (done, the two are a half turn).
  const bareFlip = words.some((word) => FLIP_WORDS.has(word)) && !words.some((word) => MIRROR_WORDS.has(word) || (FLIP_AXES.has(word) && word !== 'upside'));
  if (bareFlip && operations.some((op) => op.op === 'mirror') && operations.some((op) => op.op === 'flip')) {
    throw new PromptError('ambiguous', prompt.slice(0, 80), '"Flip" beside "upside down" may be that flip or a mirror as well: say "flip it upside down" or "mirror it and turn it upside down".', []);
  }
  if (!operations.some((op) => op.op === 'mirror') || !words.some((word) => MIRROR_WORDS.has(word)) || !words.some((word) => FLIP_WORDS.has(word))) return;
  if (words.some((word) => FLIP_AXES.has(word))) return;
  const [mirror, flip] = [words.findIndex((word) => MIRROR_WORDS.has(word)), words.findIndex((word) => FLIP_WORDS.has(word))];
  const between = words.slice(Math.min(mirror, flip) + 1, Math.max(mirror, flip));
  if (!between.some((word) => FLIP_JOINS.has(word)) || between.some((word) => FLIP_MEANS.has(word))) return;
  throw new PromptError('ambiguous', prompt.slice(0, 80), 'Beside a mirror, "flip" may mean upside down: say "flip vertically" or "mirror it" alone.', []);
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
  const words = lettersOf(prompt);
  if (words.includes('lighter') && !words.some((word) => word.startsWith('bright'))) {
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
function needsModelLater(atoms: Atom[], p: Protected, readOnce: (text: string) => EditOperation[] | undefined, regions: boolean): PromptError | undefined {
  // Each clause once: a prompt may say the same clause many times.
  const seen = new Set<string>();
  const later = atoms.slice(0, LOOK_AHEAD).find((atom) => !seen.has(atom.text) && seen.add(atom.text) && !readOnce(atom.text) && needsModel(atom.text, p));
  return later && failure(later.text, p, { regions });
}

/** Whether two clauses read together are fewer operations than each read alone. */
/**
 * Clauses of one verb alone each, then one that names a region ("blur | darken | desaturate the
 * background"): read together when that binds them all to the region. The reading and the
 * number of clauses it takes, or undefined.
 */
/** Whether a clause opens with a verb of asking or of adjusting ("blur", "dim", "warm"), not a look's name ("sepia", "black and white"). */
function startsWithVerb(text: string): boolean {
  const first = wordsOf(canonical(text))[0] ?? '';
  return isImperative(first) || ADJUSTMENT_VERBS.has(first);
}

function listedBeforeRegion(
  atoms: Atom[],
  readAlone: (text: string) => EditOperation[] | undefined,
  readJoined: (joined: Atom[]) => EditOperation[] | undefined,
): [EditOperation[], number] | undefined {
  // "blur darken | and desaturate …": verbs run together without a comma are listed too.
  const verbs = (atom: Atom) => splitRunTogether(atom.text).map((piece) => ({ text: piece }));
  let last = 0;
  while (last < atoms.length && verbs(atoms[last]!).every((piece) => wordsOf(piece.text).length === 1)) last++;
  const listed = [...atoms.slice(0, last).flatMap(verbs), atoms[last]!];
  if (listed.length < 3 || last >= atoms.length) return undefined;
  const each = listed.map((atom) => readAlone(atom.text));
  const joined = readJoined(listed);
  if (!joined || each.some((read) => read === undefined) || !bindsToRegion(joined, each.flat() as EditOperation[])) return undefined;
  return [joined, last + 1];
}

// Two readings of which one undoes the other ("too grainy, add grain") never merge into one: read
// together, the request was lost in the fault's fix.
const mergesInto = (joined: EditOperation[] | undefined, first: EditOperation[], second: EditOperation[], faults: readonly [boolean, boolean]) =>
  joined !== undefined &&
  !losesRegion(joined, [...first, ...second]) &&
  !losesOperation(joined, first, second, faults) &&
  !losesCutOrFill(joined, [...first, ...second]) &&
  !first.some((a) => second.some((b) => oppositeOf(b) === a.op)) &&
  (joined.length < first.length + second.length || bindsToRegion(joined, [...first, ...second]));
/** Steps a joined reading binds to: "add text hello and make it red" colours the text. */
/**
 * "the background is too blue, warm it": a fault read together with the request after it that
 * mends it (the same fault, of the same part) is that request's reason, not a step of its own (the
 * background had been made less blue and warmer).
 */
/** A fault said first ("the background is too blue", "my face looks washed out"), then only requests ("warm it"), not more faults. */
function faultThenRequest(joined: readonly Atom[], firstRead: EditOperation[] | undefined): boolean {
  const [first, ...after] = joined;
  const saidFault = isFault(first!.text) || (firstRead?.length === 1 && regionOfStep(firstRead[0]!) !== undefined && !asksForMore(first!.text));
  return saidFault && after.every((atom) => !isFault(atom.text) && !canonicalClause(atom.text).flags.statement);
}

function withoutFaultMended(joined: EditOperation[], faultRead: EditOperation[] | undefined, said: string | undefined): EditOperation[] {
  if (said === undefined || faultRead?.length !== 1) return joined;
  const fault = JSON.stringify(faultRead[0]);
  const at = joined.findIndex((op) => JSON.stringify(op) === fault);
  const mend = joined.some((op, k) => k !== at && mendsSameFault(op, faultRead[0]!, said) && regionOfStep(op) === regionOfStep(faultRead[0]!));
  return at >= 0 && mend ? joined.filter((_, k) => k !== at) : joined;
}

/**
 * Whether `other` mends the fault `said` that was read as `fault`: the same fault by the registry
 * ("too blue" and "warmer": a colour cast), or, for a fault of the tone with no one way to mend it,
 * any change of tone ("it looks dull, brighten it", "it looks washed out, add contrast": its own
 * reading, more colour, had been added to the request).
 */
function mendsSameFault(other: EditOperation, fault: EditOperation, said: string): boolean {
  if (mendsOf(other) === mendsOf(fault)) return true;
  // "decrease the saturation, her skin looks too red", "make it black and white, the faces are too
  // red": a colour cast is mended by taking colour away too (it had been balanced besides, tinting
  // the faces of a grey picture).
  if (mendsOf(fault) === mendsOf({ op: 'color_balance' }) && (COLOUR_TAKERS.has(other.op) || (other.op === 'saturation' && offsetOf(other) < 0))) return true;
  // More of light, contrast or colour: "it's flat, lower the saturation" does not mend it.
  return TONE_MENDS.has(other.op) && TONE_MENDS.has(fault.op) && (STRENGTHS[other.op] === undefined || offsetOf(other) > 0) && wordsOf(said.toLowerCase()).some((word) => TONE_FAULTS_OF_SEVERAL_MENDS.has(word));
}

/** Looks that take the colour away, and with it any cast. */
const COLOUR_TAKERS: ReadonlySet<EditOperation['op']> = new Set<EditOperation['op']>(['grayscale', 'sepia', 'duotone', 'threshold']);
/** "the colours are warm": how the colours are, said (a statement naming them). */
const colorsStated = (atom: string): boolean => canonicalClause(atom).flags.statement && wordsOf(canonical(atom)).some((word) => word === 'color' || word === 'colors');

/** The changes of tone that mend a fault of tone with no one way (TONE_FAULTS_OF_SEVERAL_MENDS). */
const TONE_MENDS: ReadonlySet<EditOperation['op']> = new Set<EditOperation['op']>(['brightness', 'contrast', 'saturation', 'gamma', 'normalize']);
const BINDING_STEPS: ReadonlySet<string> = new Set(['text', 'watermark', 'border']);
/** Steps that better the picture with no kind said ("enhance it"): a kind said beside them is theirs. */
const GENERAL_STEPS: ReadonlySet<string> = new Set(['normalize']);
/**
 * "boost the colours and sharpen", "boost the colours and make it brighter": read together, one
 * clause's words had become the other's degree or object, and the edit it reads alone was lost
 * (the sharpening kept, the saturation gone). A reading together may merge two edits into other
 * steps ("the picture is crooked, rotate it 2 degrees" straightens by 2), but one that is exactly
 * one side's reading alone, the other side's edits gone, took nothing from the other side's words
 * and drops what they asked (so does one with the same steps but a colour taken from the other
 * side's words). Of a region, or of a text or a border just added, joining is how the
 * parts bind ("remove the background and make it blue" fills it); a general betterment with its
 * kind said after it is that kind ("enhance the colours and make them warmer" warms).
 */
const losesOperation = (joined: EditOperation[], first: EditOperation[], second: EditOperation[], [firstFault, secondFault]: readonly [boolean, boolean]) => {
  if ([...joined, ...first, ...second].some((op) => regionOfStep(op) || BINDING_STEPS.has(op.op))) return false;
  // The same as one side alone but for a colour: "add blue and extend the canvas down" had padded
  // blue, the other side's colour taken into this side's step and its own edit gone. (Another
  // value taken is how two edits merge: "the picture is crooked, rotate it 2 degrees".)
  const colorless = (ops: EditOperation[]) => JSON.stringify(ops.map((op) => ({ ...op, background: undefined, color: undefined })));
  // "brighten a bit and boost the colours": the same steps as a request's with only their strength
  // taken from the other request ("a bit" became the saturation's) drop the other's edit as surely.
  // Beside a fault said, any value taken is how the two merge ("it's crooked, rotate it 2 degrees"),
  // and so is a value of another kind ("fit it into 1080x1080 and pad with white" letterboxes).
  const strengthless = (ops: EditOperation[]) => JSON.stringify(ops.map((op) => ({ ...op, background: undefined, color: undefined, ...(STRENGTHS[op.op] ? { [STRENGTHS[op.op]!.key]: undefined } : {}) })));
  const same = (a: EditOperation[], b: EditOperation[]) => (firstFault || secondFault ? colorless(a) === colorless(b) : strengthless(a) === strengthless(b));
  const gone = (ops: EditOperation[]) => ops.every((op) => !joined.some((kept) => kept.op === op.op)) && !ops.every((op) => GENERAL_STEPS.has(op.op));
  // A general betterment merges only into the kind said beside it ("enhance the colours and make
  // them warmer" warms); read together into a third edit ("improve the colours and brighten it":
  // the colours brightened), both were lost.
  const general = (ops: EditOperation[]) => ops.length > 0 && ops.every((op) => GENERAL_STEPS.has(op.op));
  const names = (ops: EditOperation[]) => ops.map((op) => op.op).join(' ');
  if ((general(first) && names(joined) !== names(second)) || (general(second) && names(joined) !== names(first))) return true;
  return (same(joined, first) && gone(second)) || (same(joined, second) && gone(first));
};
/**
 * "put me on a white background and make it brighter": read together, "it" became the background
 * and the white fill was lost. A background cut out or filled, said alone, is never dropped by a
 * joined reading (a fill may stand for a cut-out: "remove the background and make it blue"; a
 * colour said with another look is a tint of it: "make the background green and softer").
 */
const losesCutOrFill = (joined: EditOperation[], alone: EditOperation[]) => {
  const has = (ops: EditOperation[], names: string[]) => ops.some((op) => names.includes(op.op));
  return (has(alone, ['fill']) && !has(joined, ['fill', 'tint'])) || (has(alone, ['remove_background']) && !has(joined, ['remove_background', 'fill']));
};
/**
 * "make the background white and pad it to a square": read together, the region's fill became
 * the new canvas's colour and was lost; an edit of a region said alone is never dropped so.
 */
const losesRegion = (joined: EditOperation[], alone: EditOperation[]) => alone.some((op) => regionOfStep(op)) && !joined.some((op) => regionOfStep(op));
/**
 * "brighten and sharpen the background", "darken the backdrop and blur it": read together, an
 * edit alone or one said of "it" is of the region named beside it, not of the whole picture.
 */
const bindsToRegion = (joined: EditOperation[], alone: EditOperation[]) =>
  joined.length === alone.length && joined.filter((op) => regionOfStep(op)).length > alone.filter((op) => regionOfStep(op)).length;
/** The same operations, by name ("lighten and brighten"); texts only with the same words (two captions are two). */
const sameOperations = (a: EditOperation[], b: EditOperation[]) =>
  a.length === b.length && a.every((op, i) => op.op === b[i]!.op && (op.op !== 'text' || op.text === (b[i] as typeof op).text));

/** A word or clause past the limits is refused before any pattern runs over it. */
function assertReadable(atom: string, p: Protected): void {
  const words = wordsOf(atom);
  const long = words.find((word) => word.length > PLANNER_LIMITS.maxWordChars && !(word.startsWith('«') && word.endsWith('»')));
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
 * A clause read with the first pieces of the next (cut before each verb), and the rest of the
 * next read as pieces: "crop and" + "zoom in on her" | "make her black and white".
 */
function readIntoRunOn(atom: string, next: string, p: Protected, readOnce: (text: string) => EditOperation[] | undefined): EditOperation[] | undefined {
  const pieces = splitRunTogether(next);
  // As many pieces as are read together elsewhere, within one clause's length: linear however long the prompt.
  for (let k = 1; k < Math.min(pieces.length, MAX_PIECES_TOGETHER + 1); k++) {
    const text = `${atom} and ${pieces.slice(0, k).join(' ')}`;
    if (wordsOf(text).length > PLANNER_LIMITS.maxClauseWords) break;
    const joined = readOnce(text);
    const rest = joined && (k === pieces.length - 1 ? readOnce(pieces[k]!) : readPieces(pieces.slice(k), p, readOnce));
    if (joined && rest) return [...joined, ...rest];
  }
  return undefined;
}

/**
 * Pieces cut before each verb ("zoom in | remove the | blur"), read as consecutive groups that
 * each read: single pieces where they can, else up to MAX_PIECES_TOGETHER together. Undefined
 * when some piece is in no readable group.
 */
function readPieces(pieces: readonly string[], p: Protected, readOnce: (text: string) => EditOperation[] | undefined): EditOperation[] | undefined {
  if (pieces.length < 2) return undefined;
  // "without brightening add contrast": a look said not to be, run into a request, is a limit on
  // it that these pieces cannot keep apart (read as a piece, it was the opposite edit): asked.
  if (pieces.some(lookNotWanted)) return undefined;
  // "pad it to 16:9 with blur", "add a border with blur": a piece that ends on a word leading to
  // what follows is cut in the middle of its phrase; the verb's word after it is a noun there.
  if (pieces.slice(0, -1).some((piece) => LEADING_WORDS.has(wordsOf(piece.toLowerCase()).at(-1) ?? ''))) return undefined;
  // read[i]: the operations of pieces[0, i), when they can be grouped so.
  const read: Array<EditOperation[] | undefined> = [[]];
  for (let end = 1; end <= pieces.length; end++) {
    // "the background is too bright make it darker": "it" is the region said just before, as
    // with a comma between them (never the region's edit and then the whole picture's).
    const pair = end >= 2 ? read[end - 2] : undefined;
    const [first, second] = pair ? [readOnce(pieces[end - 2]!), readOnce(pieces[end - 1]!)] : [];
    const bound = first && second ? readOnce(`${pieces[end - 2]} and ${pieces[end - 1]}`) : undefined;
    if (pair && first && second && bound && bindsToRegion(bound, [...first, ...second])) read[end] = [...pair, ...bound];
    for (let size = 1; size <= Math.min(MAX_PIECES_TOGETHER, end) && !read[end]; size++) {
      const before = read[end - size];
      const text = pieces.slice(end - size, end).join(' ');
      // "… the whole image its gonna lighten her up": what the edits before will do, foreseen.
      const flags = canonicalClause(text).flags;
      const group = before && (readOnce(text) ?? ((before.length > 0 && flags.outcome) || (pieces.length > 1 && flags.aside) ? [] : undefined));
      if (group) read[end] = [...before, ...group];
    }
  }
  return read[pieces.length] ?? readOfParts(pieces, p);
}

/**
 * "brighten the girl, brighten the background": one edit said of each part of the picture, which
 * together are all of it (targets.ts), is that edit of the whole image, once.
 */
function readOfParts(pieces: readonly string[], p: Protected): EditOperation[] | undefined {
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

/** "fix it", "can you correct that": a mending verb whose object is only the picture. */
function mendsSaid(atom: string, fault: EditOperation): boolean {
  const said = wordsOf(canonical(atom)).filter((word) => !isFiller(word) && word !== 'that' && word !== 'this' && word !== 'them');
  // "too bright, tone it down", "it's overexposed, turn it down": less of what there is too much of.
  const lessened = said.length === 2 && TONING_VERBS.has(said[0]!) && said[1] === 'down' && STRENGTHS[fault.op] !== undefined && offsetOf(fault) < 0;
  return (said.length === 1 && MENDING_VERBS.has(said[0]!)) || lessened;
}
/** Verbs that with "down" lessen what there is too much of ("tone it down"). */
const TONING_VERBS: ReadonlySet<string> = new Set(['tone', 'turn', 'dial', 'bring', 'take']);

/**
 * "edit the image", "please modify this photo": a verb of editing in general whose object is only
 * the picture, with no other word at all. Fillers are not enough: "change the picture to that
 * one", "edit the second image", "tweak it more" and "edit it for a passport" say which picture, how
 * much or what for, and are read (or refused) as said.
 */
function editsOnlyThePicture(atom: string, afterRequests: boolean): boolean {
  const said = wordsOf(canonical(atom));
  // After a request, "it" may be what that request made ("add a border and tweak it"): only the picture's noun says the picture.
  if (afterRequests && !said.some((word) => WHOLE_IMAGE.has(word))) return false;
  return said.filter((word) => GENERAL_EDIT_VERBS.has(word)).length === 1 && said.every((word) => GENERAL_EDIT_VERBS.has(word) || FRAME_WORDS.has(word) || WHOLE_IMAGE.has(word));
}
/** Words a clause that frames the requests may hold beside its verb and the picture's noun. */
const FRAME_WORDS: ReadonlySet<string> = new Set(['please', 'kindly', 'can', 'could', 'would', 'you', 'u', 'the', 'this', 'it', 'my', 'our', 'whole', 'entire']);

/**
 * "make it brighter with a yellow tint", "blur it with a vignette": an edit, and another added
 * with it, when each reads on its own (and the whole did not: "rotate it with a white
 * background" is one rotation). With no article, only a change of shape or frame is a thing added
 * ("make it smaller with rounded corners", "add a black border with rounded corners"): a look
 * ("sharpen it with grain", "make it warmer with red") may be how the edit is made, and is not read.
 */
const WITH_ADDED: readonly Rewrite[] = [{ from: phrases('with'), followedBy: phrases('a|an|some _', '_'), to: '' }];
// "with a vignette", "with some grain", "with more contrast", "with less saturation": what opens
// the words after "with" as one more thing or amount added; a bare look ("brighten with contrast")
// may be how the first edit is done.
const WITH_ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'some', 'more', 'less', 'extra', 'higher', 'lower']);
const TAKEN_AFTER_WITH: ReadonlySet<string> = new Set(['less', 'lower']);

function readWithAdded(atom: string, readOnce: (text: string) => EditOperation[] | undefined): EditOperation[] | undefined {
  const match = cutAt(atom, WITH_ADDED);
  const first = match && readOnce(match[0]);
  // "with less saturation" is less of it, not some of it added.
  const taken = TAKEN_AFTER_WITH.has(wordsOf(match?.[1] ?? '')[0] ?? '');
  const added = first && first.length > 0 ? readOnce(taken ? match![1]! : `add ${match![1]}`) : undefined;
  if (!added || added.length === 0) return undefined;
  if (!WITH_ARTICLES.has(wordsOf(match![1]!)[0] ?? '') && added.some((op) => LOOKS.has(op.op))) return undefined;
  // "lighten it with less blur", "sharpen it with less noise": less of what a filter leaves may
  // be how the first edit is to go (adding no blur), not a second edit; less of a tone is one.
  if (taken && added.some((op) => !TONE_OPS.has(op.op))) return undefined;
  // "add the text with rounded corners", "add a border with a blur": what follows a thing added is
  // how that thing looks; "save it as jpg with high resolution", "make it smaller with good
  // quality": a size or an encoding after "with" is how, not one more edit.
  if (first!.some((op) => DESCRIBED_BY_WITH.has(op.op)) || added.some((op) => op.op === 'resize' || ENCODING_OPERATIONS.has(op.op))) return undefined;
  // "make it square with a white background", "round the corners with a black background": the
  // canvas a change of shape leaves, never the photo's own background filled or cut out.
  if (first!.some((op) => GEOMETRY_OPS.has(op.op)) && added.some((op) => regionOfStep(op) === 'background')) return undefined;
  // "make it warmer with less blue": two ways of mending one fault are one edit said twice, not
  // two edits (applied both, the picture would go twice as far).
  if (added.some((op) => first!.some((other) => other.op !== op.op && mendsOf(other) === mendsOf(op)))) return undefined;
  const cropped = first!.filter((op) => CROPPING_OPERATIONS.has(op.op));
  const padded = added.filter((op) => op.op === 'pad');
  if (cropped.length === 0 || padded.length === 0) return [...first!, ...added];
  return marginOfCrop(first!, added);
}

const GEOMETRY_OPS: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.group === 'geometry').map((entry) => entry.name));
/** Words of a camera's own look ("portrait mode", "a dslr", "moving"), which a comparison with them makes a kind of edit. */
const CAMERA_LOOKS: ReadonlySet<string> = new Set(['portrait', 'dslr', 'camera', 'lens', 'bokeh', 'iphone', 'moving', 'motion', 'speed', 'speeding', 'running']);
const PICTURE_RESIZE_VERBS: ReadonlySet<string> = new Set(['resize', 'rescale', 'scale', 'downscale', 'upscale', 'downsize', 'upsize', 'resample']);
/** Words that lead to the words after them, never the end of a request. */
const LEADING_WORDS: ReadonlySet<string> = new Set(['with', 'without', 'of', 'into', 'onto', 'at', 'by', 'for', 'from', 'the', 'a', 'an', 'some', 'and', 'or', 'but']);
const TONE_OPS: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.group === 'tone').map((entry) => entry.name));
/** Words that limit a request to what it says: the faults said beside it are reasons only. */
const LIMITING_WORDS: ReadonlySet<string> = new Set(['just', 'only', 'simply', 'merely']);
/** Things added to the picture, which a "with" after them describes ("pad it to 16:9 with blur": a blurred padding, not a blurred picture). */
const DESCRIBED_BY_WITH: ReadonlySet<string> = new Set([...OPERATIONS.filter((entry) => entry.group === 'overlay').map((entry) => entry.name), 'border', 'pad', 'pad_aspect']);

/** "crop to the face with a 20% margin": that margin, when it is the crop to a region's and even on all sides; else not read. */
function marginOfCrop(first: EditOperation[], added: EditOperation[]): EditOperation[] | undefined {
  const [crop, pad] = [first.at(-1)!, added[0]!];
  if (first.length !== 1 || added.length !== 1 || crop.op !== 'crop_to_region' || pad.op !== 'pad') return undefined;
  const sides = [pad.top, pad.right, pad.bottom, pad.left];
  const even = sides.every((side) => side?.unit === '%' && side.value === sides[0]!.value && side.value > 0 && side.value <= 100);
  return even ? [{ ...crop, margin: sides[0]!.value / 100 }] : undefined;
}

/**
 * "brighten it so the highlights stand out", "darken it, especially the shadows", "darken it to
 * make it look more natural": what follows "so (that)" or "to make it look" says why, and
 * "especially" where it matters most, not what. The edit
 * before it is read alone, when it is one and the reason names nothing in the picture and asks
 * for nothing ("so I can highlight her face", "so you can see the whole car" are refused).
 */
/** What says why an edit is made, or where it matters most: the words after it are a reason. */
const REASONS: readonly Rewrite[] = [
  { from: phrases('so [that]', 'until|till|til|especially|particularly|mostly|mainly'), to: '' },
  { from: phrases('to make it|everything look|seem|appear|feel'), notFollowedBy: phrases('like'), to: '' },
  { from: phrases('to make it|everything'), followedBy: phrases('more|less _'), to: '' },
  // "increase the contrast to make it pop", "… to make the colours stand out": a look of standing out is why.
  { from: phrases('to make'), followedBy: phrases('[it|everything|them|the|her|his|their|all] [the] [_] [_] pop|pops|stand|shine|glow'), to: '' },
  { from: phrases('to create|give|get|achieve|produce'), to: '' },
  // "make it warmer like golden hour", "… like a summer evening": a look compared is why the edit
  // is asked ("i'd like it brighter", "make it look like …" are no comparison).
  { from: phrases('like'), notAfter: (word) => LIKING_LEADS.has(word), to: '' },
  // "brighten the image making it lighter": a participle that says what the edit makes of the picture.
  { from: phrases('making|leaving it|everything'), followedBy: phrases('_'), to: '' },
];
/** Words before a "like" that is no comparison: a wish ("i'd like", "would like") or a look's verb ("look like"). */
const LIKING_LEADS = new Set(wordsOf("i i'd id we we'd you they would really also just look looks looking seem seems feel feels appear appears sound"));
/** Words of a reason that ask for something or name a part of the picture. */
const PLACE_OR_POINTING = new Set(wordsOf('this that these those here there part parts area areas region spot side corner left right top bottom middle center'));
const ASKING_OR_PLACE = new Set([...wordsOf('i we you can could add remove make change put highlight his her their my your our'), ...PLACE_OR_POINTING]);
/** Words of a reason about the file, not the picture. */
const ABOUT_THE_FILE = new Set(
  wordsOf('upload uploads download downloads load loads loading file size kb mb bytes email mail send web website storage space faster quicker'),
);
/** Words of a look reached nearly or wholly: an amount said by the reason. */
const ALL_BUT = new Set(wordsOf('almost nearly completely totally fully entirely practically virtually pitch'));
const HIDING = new Set(wordsOf('hide hidden hiding unreadable unrecognizable unrecognisable censor censored cover covered obscure obscured anonymize anonymise anonymized anonymised'));
const CANNOT_SEE = phrases('cant [be] see|seen|read', 'can t [be] see|seen|read');

function readBeforeReason(atom: string, p: Protected): EditOperation[] | undefined {
  // "the vignette is so nice": a clause that is no request as a whole has no edit before a "so".
  if (isNoRequest(canonicalClause(atom).flags)) return undefined;
  const match = cutAt(atom, REASONS);
  if (!match) return undefined;
  // A reason may describe the picture ("so it looks black and white"): read as said, not as a statement set aside.
  const reason = canonical(match[1]);
  const letters = lettersOf(reason);
  // "blur it like portrait mode", "… like a dslr", "… like it's moving": a camera's blur, of the
  // background or along a motion, is the edit's own kind, not why it is asked (the whole picture
  // was blurred evenly).
  if (letters.some((word) => CAMERA_LOOKS.has(word))) return undefined;
  // "brighten it so it's 20% brighter", "… so it's twice as bright": the reason says how much, which
  // the edit before it alone does not (it had been the default step): not read. So does a look
  // reached nearly or wholly ("darken it until it's almost black", "so it's completely white").
  // Nor is a size "like 320 by 240" a look compared: it is the size, said roughly.
  if (reason.split(' ').some((word) => quantityOf(word) !== undefined || (word[0]! >= '0' && word[0]! <= '9')) || letters.some((word) => ALL_BUT.has(word))) return undefined;
  // "blur it so the plate is hidden", "so nobody can read the sign": what is hidden or made
  // unreadable is a part of the picture (a word of seeing with one that says the opposite).
  const unseen = letters.some((word) => SEEING_WORDS.has(word)) && letters.some((word) => UNSEEN.has(word));
  if (letters.some((word) => HIDING.has(word)) || find(letters, CANNOT_SEE) || unseen) return undefined;
  // "brighten it, especially the shadows, so her face is visible": a reason about seeing, after a
  // tone or filter edit of the whole picture, is why that edit is asked, whatever it names.
  // A place or a pointing word ("so you can see the left side") says the edit is of that part.
  if (letters.some((word) => SEEING_WORDS.has(word)) && !letters.some((word) => PLACE_OR_POINTING.has(word)) && !asksForMore(reason)) {
    const seen = readClause(match[0], p);
    if (seen && seen.length > 0 && seen.every((op) => LOOKS.has(op.op))) return seen;
  }
  // "sharpen the image so the dog stands out", "brighten it so the kids pop more": the subject or
  // the faces standing out is why an edit of the whole picture is asked, as "so she stands out" is.
  const standsOut = letters.some((word) => STANDING_OUT_VERBS.has(word)) && letters.every((word) => STANDING_OUT_VERBS.has(word) || STANDING_OUT_DEGREES.has(word) || STATE_MODALS.has(word) || isFiller(word) || PICTURE_NOUNS.has(word) || regionOf(word) === 'subject' || regionOf(word) === 'face');
  // Only an edit that brings things out: a blur, a darkening or a desaturation of the whole
  // picture takes the subject down with it ("blur it so the dog stands out" means the background).
  if (standsOut) {
    const seen = readClause(match[0], p);
    const bringsOut = (op: EditOperation) => BRINGING_OUT.has(op.op) || (STRENGTHS[op.op] !== undefined && offsetOf(op) > 0);
    if (seen && seen.length > 0 && seen.every(bringsOut)) return seen;
  }
  // "lighten it so that the background is white", "invert it so the background is black": what
  // colour or tone parts end up is the edit's result there, when the edit, of the whole picture,
  // gives that look; a look it does not give ("blur it so the wall is white", "darken it so the
  // curtains are brighter") asks for something else, and is not read.
  const stated = statedLooks(letters);
  if (stated) return readAsStated(match[0], stated, p);
  // A reason that names a part ("especially this part", "so the left side shows") is about that part.
  if (isGenerative(reason) || asksForMore(reason) || letters.some((word) => ASKING_OR_PLACE.has(word))) return undefined;
  // "make it lighter so it uploads faster": a reason about the file says "lighter" meant its weight.
  if (letters.some((word) => ABOUT_THE_FILE.has(word))) return undefined;
  // "zoom in so the logo stays", "crop the left so the sign is still visible": a crop whose reason
  // is a thing it must keep or show needs to know where that is: not read (a crop made as if the
  // reason were not there could cut the logo off). The picture seen better ("so the details are
  // visible", "so it is easier to see") names no such thing.
  const asked = readClause(match[0], p);
  const namesAThing = letters.some((word) => !isFiller(word) && !SEEING_WORDS.has(word) && !KEPT_WORDS.has(word) && !STATE_VERBS.has(word) && !STATE_MODALS.has(word) && !WHOLE_IMAGE.has(word) && !SEEN_AS_A_WHOLE.has(word));
  if (asked?.some((op) => CROPPING_OPERATIONS.has(op.op)) && letters.some((word) => SEEING_WORDS.has(word) || KEPT_WORDS.has(word)) && namesAThing) return undefined;
  const read = lightMeant(asked, match[0], reason, p);
  if (!read || read.length === 0 || namesAnotherLook(reason, read, p)) return undefined;
  return read;
}

/**
 * The kinds of look a reason states of parts of the picture ("the background is white and the
 * lettering is black" → light, dark), when it is only that: each part named by a few words opened
 * by "the" or a possessive, tied by a verb of being to a look, words of degree and one colour or
 * tone word (`lookKind`).
 */
/** Words that make a stated look the picture's own or its colours' ("so the photo is lighter", "so the colours are brighter"): read as before. */
const NOT_A_PART: ReadonlySet<string> = new Set([...PICTURE_NOUNS, ...WHOLE_IMAGE, ...REDUCED_QUALITY_HEADS, 'thing', 'everything']);
function statedLooks(letters: string[]): string[] | undefined {
  const parts: string[][] = [[]];
  letters.forEach((word, i) => (word === 'and' && PART_OPENERS.has(letters[i + 1] ?? '') ? parts.push([]) : parts.at(-1)!.push(word)));
  const kinds = parts.map((part) => {
    const at = part.findIndex((word) => STATE_VERBS.has(word));
    if (at < 1) return undefined;
    const [name, look] = [part.slice(0, at), part.slice(at + 1)];
    if (STATE_MODALS.has(name.at(-1) ?? '')) name.pop();
    if (name.length < 1 || name.length > MAX_PART_WORDS || !PART_OPENERS.has(name[0]!) || name.slice(1).some((word) => ASKING_OR_PLACE.has(word) || NOT_A_PART.has(word))) return undefined;
    return kindOfLook(look);
  });
  return kinds.every((kind) => kind !== undefined) ? kinds : undefined;
}

/** A clause that only states looks of parts, after one whose reason does, when the edit of that one gives them too. */
function statedAfterReason(before: string, atom: string, p: Protected): boolean {
  const match = cutAt(before, REASONS);
  const kinds = statedLooks(lettersOf(canonical(atom)));
  return !!match && !!kinds && !!statedLooks(lettersOf(canonical(match[1]))) && readAsStated(match[0], kinds, p) !== undefined;
}

/** The kind of a look said as words of degree and one colour or tone word ("a bit more white": light). */
const kindOfLook = (look: string[]): string | undefined =>
  look.length > 0 && look.slice(0, -1).every((word) => LOOK_DEGREES.has(word)) ? lookKind(look.at(-1)!) : undefined;

/** The edit before stated looks, when it is of the whole picture and each look is given by one of its operations (`LOOK_GIVERS`). */
function readAsStated(edit: string, kinds: string[], p: Protected): EditOperation[] | undefined {
  const read = readClause(edit, p);
  if (!read || read.length === 0 || read.some((op) => !LOOKS.has(op.op) || regionOfStep(op))) return undefined;
  return givesLooks(read, kinds) ? read : undefined;
}

/** Whether the edits give each kind of look (`LOOK_GIVERS`): one of them does, the right way. */
function givesLooks(read: EditOperation[], kinds: string[]): boolean {
  const gives = (kind: string) => read.some((op) => LOOK_GIVERS[kind]!.some(([name, way]) => op.op === name && (way === 0 || Math.sign(offsetOf(op)) === way)));
  return kinds.every(gives);
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
const STYLES: readonly [Phrases, readonly EditOperation['op'][]][] = [
  [words('dreamy dream dreamlike ethereal soft'), ['blur', 'glow']],
  [words('grainy grain film filmic'), ['noise']],
  [words('glow glows glowing'), ['glow']],
  [words('vintage retro old older aged antique nostalgic'), ['sepia']],
  // Lifting the light lifts the blacks too: a brighter picture looks more washed out.
  [phrases('washed out', 'faded|matte'), ['saturation', 'contrast', 'brightness']],
  [words('moody gloomy somber sombre'), ['brightness', 'contrast', 'vignette', 'saturation']],
  [
    phrases('sci fi', 'cinematic|movie|artistic|surreal|psychedelic|neon|hdr|polaroid|lomo|noir|gothic|spooky|creepy|eerie|magical|fantasy|sparkly|sparkling|glitter|glittery|futuristic|cartoony|painted'),
    [],
  ],
];

/**
 * "brighten it so it looks black and white", "darken it so that it is grainy": a reason that
 * itself reads as another edit, or names a style, asks for that too, and the edit before it
 * alone would not be what was asked. "brighten it so it appears whiter" reads as the same edit.
 */
function namesAnotherLook(reason: string, read: EditOperation[], p: Protected): boolean {
  const named = new Set<string>(read.map((op) => op.op));
  // A style the edit gives ("a dreamy feel" of a blur) is its look; one it does not give asks for more.
  const letters = lettersOf(reason);
  // "brighten it so it will pop", "… so the image stands out": standing out is what any edit of the
  // whole picture is for, no other look.
  const said = letters.filter((word) => !isFiller(word) && !PICTURE_NOUNS.has(word) && !STATE_MODALS.has(word) && !STANDING_OUT_DEGREES.has(word));
  if (said.length > 0 && said.every((word) => STANDING_OUT_VERBS.has(word))) return false;
  const styles = STYLES.filter(([named]) => find(letters, named));
  if (styles.length > 0) return styles.some(([, edits]) => !edits.some((op) => named.has(op)));
  const core = rewrite(wordsOf(reason), LOOK_OF).join(' ');
  const asked = readClause(`make it ${core}`, p) ?? readClause(core, p);
  // A colour or tone that reads as no one edit ("so it is white") is given by the edits of its kind
  // (`LOOK_GIVERS`), or asks for another ("blur it so it is white").
  const kind = asked === undefined ? kindOfLook(wordsOf(core)) : undefined;
  if (kind && !givesLooks(read, [kind])) return true;
  // The same look the other way ("darken it so it's brighter") is no reason for the edit: asked about.
  const opposite = (op: EditOperation) => STRENGTHS[op.op] !== undefined && read.some((edit) => edit.op === op.op && Math.sign(offsetOf(edit)) === -Math.sign(offsetOf(op)));
  // A result is given only as more of it ("so the colours pop"; "so it is less saturated" is not contrast's).
  const given = (op: EditOperation) => (RESULTS[op.op] ?? []).some((cause) => named.has(cause)) && (STRENGTHS[op.op] === undefined || offsetOf(op) > 0);
  return asked !== undefined && asked.some((op) => (!named.has(op.op) && !given(op)) || opposite(op));
}

/** Edits that bring the picture's things out, besides more of a two-way adjustment. */
const BRINGING_OUT: ReadonlySet<string> = new Set(['sharpen', 'denoise', 'dehaze', 'normalize', 'auto_white_balance']);
/** Words said with standing out that add no look ("so it will really pop", "stand out more"). */
const STANDING_OUT_DEGREES: ReadonlySet<string> = new Set(['out', 'more', 'really', 'strongly', 'slightly', 'even', 'much']);

/** "it looks a …", "… feel": the words around the look a reason names. */
const LOOK_OF: readonly Rewrite[] = [
  { from: phrases("it|it's|its|everything look|looks|seem|seems|appear|appears|feel|feels|is|become|becomes|get|gets", 'the image|photo|picture|pic look|looks|seem|seems|appear|appears|feel|feels|is|become|becomes|get|gets'), at: 'start', followedBy: phrases('_'), to: '' },
  { from: phrases('[it] a|an|some|the'), at: 'start', followedBy: phrases('_'), to: '' },
  { from: phrases('look|feel|vibe|effect|style|mood|atmosphere|tone'), at: 'end', notAfter: () => false, to: '' },
];

/** What an edit gives as well as its own: removing noise or haze, or more contrast, makes it clearer. */
// More contrast makes the colours pop too ("add contrast so the colours pop").
const RESULTS: Partial<Record<string, readonly string[]>> = { sharpen: ['denoise', 'dehaze', 'contrast'], saturation: ['contrast'] };

/**
 * "lighten it a lot so it looks like a clear day", "brighten it as if lit by a flash", "raise
 * the contrast bringing out the shadows and highlights": the look the edit is for, said after a
 * tone or filter edit of the whole picture. Only then: after a crop or a zoom the same words say
 * what to keep ("zoom in so it looks like a close-up of the car"). The look itself must name no
 * content or part and ask for nothing ("so it looks like a painting" stays a model's work).
 */
/** What says the look an edit is for: the words after it are that look. */
const OUTCOMES: readonly Rewrite[] = [
  { from: phrases("so [that] it|it's|its|everything look|looks|seem|seems|appear|appears like", "so [that] it|it's|its|everything look|looks|seem|seems|appear|appears as if"), to: '' },
  { from: phrases('so [that] the image|photo|picture look|looks|seem|seems|appear|appears like', 'so [that] the image|photo|picture look|looks|seem|seems|appear|appears as if'), to: '' },
  { from: phrases('as if', 'bringing|pulling out'), to: '' },
];

function readBeforeOutcome(atom: string, p: Protected): EditOperation[] | undefined {
  const match = cutAt(atom, OUTCOMES);
  if (!match) return undefined;
  const { text: look, flags } = canonicalClause(match[1]);
  if (isNoRequest(flags)) return undefined;
  if (isGenerative(look) || asksForMore(look) || !look.split(' ').every((word) => LIGHT_AND_TIME.has(word))) return undefined;
  const read = readClause(match[0], p);
  return read && read.length > 0 && read.every((op) => LOOKS.has(op.op)) ? read : undefined;
}

/**
 * The words a look after a tone edit may use: light, the time of day, weather and season, the
 * ends of the tonal range. A look named otherwise ("as if seen through night vision", "as if it
 * were an x-ray", "so it looks like an old film") is another effect than the edit before it,
 * which alone would not be what was asked.
 */
const LIGHT_AND_TIME: ReadonlySet<string> = new Set(
  wordsOf(`a an the it it's its is was were be had been more less very bit little much and both all of to their maximum full
  taken shot lit by at in on during with under through from
  day daytime night nighttime noon midday morning afternoon evening dusk dawn sunset sunrise twilight golden hour
  sun sunny sunshine sunlight daylight moonlight clear bright brighter dark darker light lighter well cloudy overcast gloomy rainy
  flash lamp lamps studio natural real realistic professional modern clean cleaner fresh crisp
  summer spring autumn fall winter outdoors indoors outside inside shade
  shadows shadow highlights highlight details detail midtones tones`),
);

/**
 * The same look asked again with other edits between ("sharpen it, crop the edges, increase the
 * clarity"; "sepia with some grain, like an old photo"): one request said twice, as in a row, when
 * both go the same way. The edits between do not change how the look reads; the look asked the
 * opposite way after one is two edits, as before ("brighten it, rotate it, then darken it a bit").
 */
function askedAgainEarlier(operations: EditOperation[], op: EditOperation): { at: number; op: EditOperation } | undefined {
  if (!LOOKS.has(op.op)) return undefined;
  let at = operations.length - 1;
  while (at >= 0 && operations[at]!.op !== op.op) at--;
  const earlier = operations[at];
  if (at === operations.length - 1 || !earlier || earlier.op !== op.op || regionOfStep(earlier) !== regionOfStep(op)) return undefined;
  if (STRENGTHS[op.op] && Math.sign(offsetOf(earlier)) !== Math.sign(offsetOf(op))) return undefined;
  const once = sameLook(earlier, op);
  return once && { at, op: once };
}


/**
 * "blur it and sharpen it", "add grain and remove the noise": an edit and the one that undoes it,
 * of the same part of the picture, are opposite requests, asked about as opposite ways of one
 * look are (sameLook); of different parts ("blur the background, sharpen the subject") they stand.
 */
function assertNotUndone(operations: EditOperation[], prompt: string): void {
  const undone = operations.find((op) => operations.some((other) => oppositeOf(other) === op.op && regionOfStep(other) === regionOfStep(op)));
  if (undone) throw new PromptError('ambiguous', prompt.slice(0, 80), `The prompt asks for ${undone.op} and for ${oppositeOf(undone)}, which undoes it, of the same part of the picture: say which one you want.`, []);
}

/**
 * "add a red border and make it black and white", "add the text "hi" in yellow and invert it": a
 * change of the whole picture's colours done after a thing drawn in a colour said would change
 * that colour too (a grey border, a blue text), which nobody asked: the picture's colours are
 * changed first, then the things are drawn as said. (A filter after them stays after: "add the
 * text "hi" and make it glow" may mean the text.)
 */
function tonesBeforePaint(operations: EditOperation[]): EditOperation[] {
  const firstPaint = operations.findIndex((op) => PAINTED.has(op.op));
  if (firstPaint < 0) return operations;
  // A mirror or a flip after words written would write them backwards ("add the caption "hi" and
  // flip it"): the picture is turned over first, as its colours are changed first.
  const written = operations.findIndex((op) => WRITTEN.has(op.op));
  const turnsOver = (op: EditOperation, at: number) => written >= 0 && at > written && TURNING_OVER.has(op.op);
  const later = operations.slice(firstPaint + 1).filter((op, k) => (TONE_OPS.has(op.op) && regionOfStep(op) === undefined) || turnsOver(op, firstPaint + 1 + k));
  if (later.length === 0) return operations;
  const moved = new Set(later);
  return [...operations.slice(0, firstPaint), ...later, ...operations.slice(firstPaint).filter((op) => !moved.has(op))];
}
/**
 * "make it red and black and white", "sepia and then black and white": a look that remakes the
 * colours from the light alone (greyscale, sepia, duotone) after another colouring of the same
 * part, or of a part when it is of the whole (region steps run first), leaves nothing of the first: one of the two is not what was asked. (A colour after the
 * greyscale, "black and white with a blue tint", is a toned print, and stands.)
 */
function assertNotCovered(operations: EditOperation[], prompt: string): void {
  operations.forEach((op, i) => {
    if (!FROM_LIGHT.has(op.op)) return;
    const covers = (before: EditOperation) => regionOfStep(op) === undefined || regionOfStep(before) === regionOfStep(op);
    // A white, black or grey fill stays as it was ("make the background white and the photo black and white").
    const grey = (before: EditOperation) => 'color' in before && before.color !== undefined && before.color.r === before.color.g && before.color.g === before.color.b;
    const covered = operations.slice(0, i).find((before) => before.op !== op.op && (WASHES.has(before.op) || FROM_LIGHT.has(before.op)) && !grey(before) && covers(before));
    if (covered) throw new PromptError('ambiguous', prompt.slice(0, 80), `The prompt asks for ${covered.op} and then ${op.op}, which leaves nothing of the ${covered.op}: say the one you want (a tint after ${op.op} tones it).`, []);
  });
}
/** Looks that make the colours anew from each pixel's light. */
const FROM_LIGHT: ReadonlySet<string> = new Set(['grayscale', 'sepia', 'duotone']);
/** Looks that cover the picture's colour with one of their own. */
const WASHES: ReadonlySet<string> = new Set(['tint', 'duotone', 'fill']);
/** Words written on the picture, and the edits that would turn them over. */
const WRITTEN: ReadonlySet<string> = new Set(['text', 'watermark']);
const TURNING_OVER: ReadonlySet<string> = new Set(['mirror', 'flip']);
/** Things drawn in a colour of their own. */
const PAINTED: ReadonlySet<string> = new Set(['text', 'watermark', 'border', 'pad']);

/**
 * "zoom", "zoom the photo a bit", "crop and zoom": a zoom said with no way, alone in its clause
 * and of the picture alone, is in, as a viewer's zoom is. Read here, where the whole clause is
 * seen: a rule sees only its piece of a run-on clause ("zoom blur on the background", "inverse
 * zoom", "zoom 80%"), and with anything else beside it a bare zoom is not read.
 */
function bareZoomIn(atom: Atom): Atom {
  const lower = atom.text.toLowerCase();
  const said = wordsOf(lower);
  if (said.filter((word) => word === 'zoom').length !== 1 || !said.every((word) => word === 'zoom' || BARE_ZOOM_WORDS.has(word) || WHOLE_IMAGE.has(word))) return atom;
  const at = lower.indexOf('zoom') + 'zoom'.length;
  return { text: `${atom.text.slice(0, at)} in${atom.text.slice(at)}` };
}

/**
 * "the background is distracting", "her face is in shadow", "it's too busy": how a part of the
 * picture, or "it", is, with no request in it: the part's words and region, or a pronoun.
 */
function partStatement(text: string): { words?: string[]; region?: string } | undefined {
  const words = wordsOf(canonical(text));
  if (words.some((word) => isImperative(word) || ASKING_IN_STATEMENT.has(word))) return undefined;
  if (CONTRACTED_SUBJECTS.has(words[0] ?? '') && words.length > 1) return {};
  const copula = words.findIndex((word) => PART_COPULAS.has(word));
  if (copula < 1) return undefined;
  const subject = words.slice(0, copula);
  if (subject.length === 1 && PRONOUN_SUBJECTS.has(subject[0]!)) return {};
  const region = regionOf(subject.at(-1)!);
  if (region === undefined || region === 'none' || !subject.slice(0, -1).every((word) => OBJECT_ONLY_LEADS.has(word))) return undefined;
  return { words: subject, region };
}
/** Verbs of being or seeming (text.ts), and of how a part feels or gets. */
const PART_COPULAS: ReadonlySet<string> = new Set([...BEING_OR_SEEMING, 'feels', 'gets']);
const PRONOUN_SUBJECTS: ReadonlySet<string> = new Set(['it', 'they', 'she', 'he']);
const CONTRACTED_SUBJECTS: ReadonlySet<string> = new Set(["it's", 'its', "they're", 'theyre', "she's", "he's"]);
const ASKING_IN_STATEMENT: ReadonlySet<string> = new Set(['please', 'pls', 'can', 'could', 'would', 'should', 'need', 'needs', 'want']);

/** "the background is distracting, blur it", "the background is green, make it white": "it" after how a part is said is that part ("blur the background"). */
function ofThePartSaid(statement: Atom, atom: Atom): Atom {
  const part = partStatement(statement.text);
  // Only a fault of the part ("distracting", "busy", "in shadow", "too …"): after praise or a
  // description ("the background is nice, blur it", "the dog is cute, brighten it") "it" may be the picture, asked.
  const said = wordsOf(canonical(statement.text));
  const faulty = said.some((word) => word === 'too' || word === 'shadow' || word === 'shade' || FAULT_QUALITIES.has(word) || (REGION_STATES.has(word) && !PRAISED_STATES.has(word)));
  // "the background is green, make it white": a part said to be one colour and "it" made another
  // is that part recoloured (the picture is not one colour).
  const colorOf = (text: string) => wordsOf(canonical(text)).map((word) => namedColor(word)).find((color) => color !== undefined);
  const said1 = colorOf(statement.text);
  const asked = said1 === undefined ? undefined : colorOf(atom.text);
  const recolored = asked !== undefined && JSON.stringify(asked) !== JSON.stringify(said1);
  if (part?.words === undefined || !(faulty || recolored)) return atom;
  // "the background has a green cast, remove it", "… is too dark, get rid of it": what is taken
  // away may be the fault as well as the part: not read as the part.
  if (faulty && TAKING_AWAY_VERBS.has(wordsOf(canonical(atom.text)).find((word) => !isFiller(word)) ?? '')) return atom;
  // "them" stands for parts that are several ("the faces"), "it" for one ("the background").
  const several = namesSeveral(part.words.at(-1)!);
  const words = wordsOf(atom.text);
  const it = words.findIndex((word, k) => k > 0 && word.toLowerCase() === (several ? 'them' : 'it'));
  if (it < 0) return atom;
  return { text: [...words.slice(0, it), ...part.words, ...words.slice(it + 1)].join(' ') };
}

/** States of a part that are no fault ("colorful", "vivid", "sharp"). */
const PRAISED_STATES: ReadonlySet<string> = new Set(['colorful', 'vivid', 'sharp', 'bright', 'outdoor', 'outdoors', 'indoor', 'current', 'existing', 'original', 'old', 'present', 'actual']);
/** Whether a clause says how a part is (or "it", after a part's edit) beside an edit of that part, as its reason. */
function reasonOfPartEdit(text: string, before: EditOperation | undefined, after: EditOperation[] | undefined): boolean {
  const part = partStatement(text);
  if (part === undefined) return false;
  const beside = [...(before ? [before] : []), ...(after ?? [])];
  return part.region === undefined ? before !== undefined && regionOfStep(before) !== undefined : beside.some((op) => regionOfStep(op) === part.region);
}

/**
 * "there's a red tint over this, could you remove it?", "the whole picture has a pinkish tint, take
 * it out", "it's too orange, tone that down": a colour cast said, then "it" or "that" mended, is
 * that cast removed, one request (the cast as said, the pronoun read as the picture, had been
 * refused as a statement beside an edit of the whole picture). Only when the request so read is a
 * correction of colour; else the two clauses are read as before.
 */
function castMended(statement: Atom, atom: Atom, read: (text: string) => EditOperation[] | undefined): Atom | undefined {
  const said = wordsOf(statement.text.toLowerCase());
  const colorAt = said.findIndex((word, i) => colorOfCast(word) !== undefined && (CAST_NOUNS.has(said[i + 1] ?? '') || said[i - 1] === 'too'));
  // Of the whole picture only: "her shirt has a red tint", "the dog is too brown" are a part's.
  if (colorAt < 0 || !said.every((word) => isFiller(word) || WHOLE_IMAGE.has(word) || CAST_NOUNS.has(word) || colorOfCast(word) !== undefined || CAST_STATEMENT_WORDS.has(word))) return undefined;
  if (asksForMore(statement.text) || asksSomeone(statement.text)) return undefined;
  const cast = CAST_NOUNS.has(said[colorAt + 1] ?? '') ? [colorOfCast(said[colorAt]!)!, said[colorAt + 1]!] : [colorOfCast(said[colorAt]!)!];
  const words = wordsOf(atom.text);
  // Asked, not told: "can you get rid of it", "tone that down", never "i was going to get rid of it"
  // or "my mum fixed that".
  const verb = words[0]?.toLowerCase() ?? '';
  if (!asksSomeone(atom.text) && !REQUEST_VERBS.has(verb) && !MENDING_VERBS.has(verb) && !CAST_MENDING_VERBS.has(verb)) return undefined;
  const it = words.findIndex((word, k) => k > 0 && CAST_PRONOUNS.has(word.toLowerCase()));
  if (it < 0) return undefined;
  const text = [...words.slice(0, it), 'the', ...cast, ...words.slice(it + 1)].join(' ');
  const fix = read(text);
  // The cast mended, never made more of ("it looks too yellow, enhance that"): the same step as the
  // cast said alone is read as (its fix), when it reads.
  const saidAlone = read(statement.text);
  const mends = saidAlone?.length === 1 ? JSON.stringify(fix) === JSON.stringify(saidAlone) : true;
  return fix?.length === 1 && mends && COLOR_CORRECTIONS.has(fix[0]!.op) && regionOfStep(fix[0]!) === undefined ? { text } : undefined;
}
/**
 * "it has a yellow cast, make it blue instead": a tint of the whole picture asked "instead" of a
 * cast said is the cast's colour changed, which a cast taken away and a wash of colour laid over
 * (what the two clauses read as) may or may not give: asked. Said as two requests ("remove the
 * yellow cast and give it a blue tint instead") it is planned.
 */
function assertTintInsteadOfCast(operations: readonly EditOperation[], fromFaults: ReadonlyMap<EditOperation, string>, read: readonly EditOperation[], text: string, p: Protected): void {
  const tints = read.some((op) => op.op === 'tint' && regionOfStep(op) === undefined);
  const castSaid = operations.some((op) => fromFaults.has(op) && COLOR_CORRECTIONS.has(op.op)) && !operations.some((op) => !fromFaults.has(op) && COLOR_CORRECTIONS.has(op.op));
  if (!tints || !castSaid || !wordsOf(text.toLowerCase()).includes('instead')) return;
  const clause = restore(text, p);
  throw new PromptError('ambiguous', clause, `"${clause}" asks for a colour instead of the cast said before: say whether the cast should go and the picture be tinted ("remove the cast and tint it blue") or only made warmer or cooler ("make it cooler").`, defaultSuggestions());
}

/** Whether a clause says what something is or has with a verb of its own ("it's grey", "it has a cast", "the sky looks flat"), not a bare look ("blurry"). */
function saysWhatIs(text: string): boolean {
  // ("its" may be the possessive: "its rider".)
  return wordsOf(text.toLowerCase()).some((word) => word !== 'its' && (BEING_OR_SEEMING.has(word) || HAVING.has(word) || word.endsWith("'s")));
}

/** Whether a clause is only a part said not to be edited ("not the face"), beside an edit of another located part. */
function negatedPartBeside(text: string, last: EditOperation | undefined): boolean {
  const { text: said, flags } = canonicalClause(text);
  const edited = last === undefined ? undefined : regionOfStep(last);
  if (!flags.negated || edited === undefined) return false;
  const words = said.split(' ').filter((word) => word !== '' && !OBJECT_ONLY_LEADS.has(word) && word !== 'but' && word !== 'and');
  const parts = words.map((word) => regionOf(word));
  return words.length > 0 && parts.every((part) => part !== undefined && part !== 'none' && part !== edited && !(edited === 'subject' && part === 'face'));
}

/** "fix it", "correct that", "can you fix it": a clause that only asks to mend what was said. */
function mendsOnly(text: string): boolean {
  const said = wordsOf(canonical(text)).filter((word) => !isFiller(word));
  return said.length >= 1 && MENDING_VERBS.has(said[0]!) && said.slice(1).every((word) => CAST_PRONOUNS.has(word) || word === 'them' || WHOLE_IMAGE.has(word));
}

/** A colour a cast is said in ("red", "pinkish": pink). */
const colorOfCast = (word: string): string | undefined => (namedColor(word) !== undefined ? word : word.endsWith('ish') && namedColor(word.slice(0, -3)) !== undefined ? word.slice(0, -3) : undefined);
/** Pronouns that stand for a cast said before ("remove it", "tone that down"). */
const CAST_PRONOUNS: ReadonlySet<string> = new Set(['it', 'that', 'this']);
/** The steps that take a cast away. */
const COLOR_CORRECTIONS: ReadonlySet<string> = new Set(['color_balance', 'temperature', 'auto_white_balance']);

/**
 * "too much contrast, soften it", "the lighting is harsh, soften it", "too much saturation, tone it
 * down": "it" after a fault said of one quality of the picture is that quality, when the request
 * so read mends the fault (read as the picture, "soften it" had blurred it besides).
 */
function ofTheQualitySaid(fault: Atom, atom: Atom, read: (text: string) => EditOperation[] | undefined): Atom {
  const said = wordsOf(atom.text);
  const it = said.findIndex((word) => word.toLowerCase() === 'it' || word.toLowerCase() === 'them');
  // A verb with a quality of its own is the picture's ("too much contrast, darken it").
  const verb = wordsOf(canonical(atom.text))[0] ?? '';
  if (it < 0 || startsWithVerb(fault.text) || DIRECTED[verb] !== undefined) return atom;
  const qualities = wordsOf(fault.text.toLowerCase()).filter((word) => NOUNS[word] !== undefined || LIGHT_NOUNS.has(word));
  if (qualities.length !== 1) return atom;
  const text = [...said.slice(0, it), 'the', qualities[0]!, ...said.slice(it + 1)].join(' ');
  const [faultRead, asked] = [read(fault.text), read(text)];
  const mends = faultRead?.length === 1 && asked?.length === 1 && regionOfStep(faultRead[0]!) === undefined && regionOfStep(asked[0]!) === undefined && mendsOf(asked[0]!) === mendsOf(faultRead[0]!);
  return mends ? { text } : atom;
}

/**
 * "make the man pop out", "make her pop": a person or a face made to stand out may be brighter,
 * more vivid or sharper, or the rest darker or blurred: asked (read as the colours' "pop", it had
 * been a more saturated person). "make the colours pop" is more vivid colours.
 */
function assertStandingOutMeant(read: readonly EditOperation[], atom: string, p: Protected): void {
  const region = read.map(regionOfStep).find((one) => one === 'subject' || one === 'face');
  // Only where standing out is what is made ("make him pop"), not why ("brighten her face so it pops").
  const said = wordsOf(canonical(atom));
  // ("make her colours pop": her colours more vivid.)
  const colours = said.some((word) => word === 'color' || word === 'colors');
  if (region === undefined || colours || !COMPLEMENT_VERBS.has(said[0] ?? '') || !said.some((word) => STANDING_OUT_VERBS.has(word)) || said.some((word) => REASON_WORDS.has(word) || word === 'so')) return;
  const clause = restore(atom, p);
  throw new PromptError('ambiguous', clause, `"${clause}" asks for the ${region} to stand out, which a brighter, more vivid or sharper ${region}, or a darker or blurred background, may give: say which ("brighten her", "darken the background").`, defaultSuggestions());
}

/**
 * "blur the faces and the background", "make her face brighter and the background": a part of the
 * picture named alone after a clause that edits another is the object of that clause's verb too,
 * read as that clause said of it ("blur the background"). Only where the clause before names one
 * part after its verb, so what to put in its place is plain.
 */
/**
 * "raise the brightness a bit and the saturation a lot", "increase the brightness by 10% and the
 * contrast by 20%": a quality with its own amount and no verb, after a clause whose verb changes a
 * quality, has that verb too, with its own amount (read together, the second amount had been both's).
 */
function qualityWithAmount(words: readonly string[], before: readonly string[]): string | undefined {
  const at = OBJECT_ONLY_LEADS.has(words[0] ?? '') ? 1 : 0;
  const amount = words.slice(at + 1);
  const amountSaid = amount.length > 0 && amount.every((word) => QUALITY_AMOUNT_WORDS.has(word) || quantityOf(word) !== undefined);
  const verb = before[0] ?? '';
  // Only where the clause before has an amount of its own: "increase contrast and brightness by
  // 20%" says one amount for both.
  const ownAmount = before.some((word) => quantityOf(word) !== undefined || word === 'slightly' || word === 'strongly');
  if (!amountSaid || !ownAmount || NOUNS[words[at] ?? ''] === undefined || !(ADJUSTMENT_VERBS.has(verb) || UP.has(verb) || DOWN.has(verb)) || !before.some((word) => NOUNS[word] !== undefined)) return undefined;
  return [verb, ...words].join(' ');
}
/** Words of how much, after a quality said with no verb ("… and the saturation a lot", "… by 20%"). */
const QUALITY_AMOUNT_WORDS: ReadonlySet<string> = new Set(['by', 'slightly', 'strongly', 'a', 'bit', 'lot', 'little', 'more', 'less', 'too', 'as', 'well']);

/** Words that say where a part is or which one it is, after it ("the man on the left", "the girl in red"). */
const PART_PLACE_WORDS: ReadonlySet<string> = new Set(['on', 'in', 'at', 'near', 'behind', 'next', 'beside', 'with', 'from', 'of', 'left', 'right', 'middle', 'center', 'front', 'back', 'who', 'that', 'wearing']);
/** "i want the contrast increased and the saturation reduced": the wish carried on to each clause that needs it (spellings.ts). */
function wishesCarriedOn(atoms: Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const atom of atoms) {
    const wished = out.length > 0 ? wishCarriedOn(out.at(-1)!.text, atom.text) : undefined;
    out.push(wished === undefined ? atom : { text: wished, shared: true });
  }
  return out;
}

function sharedVerbs(atoms: Atom[]): Atom[] {
  // The part's noun: "her" in "her face" leads it; alone ("brighten her") it is the part.
  const partsOf = (words: readonly string[]) => {
    const all = words.flatMap((word, at) => (regionOf(word) !== undefined ? [at] : []));
    const nouns = all.filter((at) => !OBJECT_ONLY_LEADS.has(words[at]!));
    return nouns.length > 0 ? nouns : all;
  };
  return atoms.map((atom, i) => {
    // "blur the background, but not the face": a part said not to be edited never shares the verb
    // (its "not" is out of its canonical form; shared, the face had been blurred too).
    if (canonicalClause(atom.text).flags.negated) return atom;
    const words = canonical(atom.text).split(' ').filter(Boolean);
    if (i > 0) {
      const quality = qualityWithAmount(words, canonical(atoms[i - 1]!.text).split(' ').filter(Boolean));
      if (quality) return { text: quality, shared: true };
    }
    // Only the parts that can be located ("his hat" after "remove the man on the left" is more content, the model's).
    const locatable = (word: string) => regionOf(word) !== undefined && regionOf(word) !== 'none';
    if (i === 0 || words.length < 2 || !OBJECT_ONLY_LEADS.has(words[0]!) || !words.slice(1).every(locatable)) return atom;
    const before = canonical(atoms[i - 1]!.text).split(' ').filter(Boolean);
    const parts = partsOf(before);
    if (parts.length !== 1) return atom;
    const at = parts[0]!;
    if (!locatable(before[at]!)) return atom;
    let start = at;
    while (start > 0 && OBJECT_ONLY_LEADS.has(before[start - 1]!)) start--;
    // What follows the first part must be the edit's ("brighter"), not where that part is ("on the left").
    const tail = before.slice(at + 1);
    if (start === 0 || tail.some((word) => PART_PLACE_WORDS.has(word))) return atom;
    return { text: [...before.slice(0, start), ...words, ...tail].join(' '), shared: true };
  });
}

/**
 * "crop to 16:9 but first rotate 90", "add a border, crop it square first": a clause said to come
 * first is done first (in the order written, the crop was of the picture before its turn).
 * "the first picture" is an ordinal, not when.
 */
function doneFirst(atoms: Atom[]): Atom[] {
  // The clause must be a request ("… but first rotate 90", "rotate it 90 first"): "the flip
  // should be first" says which of the others, and is read as said.
  const first = (atom: Atom) => {
    const words = wordsOf(atom.text.toLowerCase()).filter((word) => word !== 'but' && word !== 'and');
    const request = isImperative(words[0] === 'first' ? (words[1] ?? '') : (words[0] ?? ''));
    return request && (words[0] === 'first' || words.at(-1) === 'first' || words.at(-1) === 'beforehand');
  };
  if (atoms.length < 2 || first(atoms[0]!) || !atoms.slice(1).some(first)) return atoms;
  return [...atoms.filter(first), ...atoms.filter((atom) => !first(atom))];
}

/** How far a look with a strength goes from leaving the picture as it is, signed by its way. */
function offsetOf(o: EditOperation): number {
  const strength = STRENGTHS[o.op]!;
  const value = (o as unknown as Record<string, number>)[strength.key]!;
  return strength.ratio ? Math.log(value / strength.neutral) : value - strength.neutral;
}

/**
 * "make it smaller so it fits as an avatar, 128 x 128": a scale with no amount said, then the
 * size in pixels, is one resize to that size (the picture had been halved, then resized again).
 */
function sizeOfScale(last: EditOperation | undefined, op: EditOperation): EditOperation | undefined {
  if (last?.op !== 'resize' || op.op !== 'resize' || last.fit !== 'fill' || last.width?.unit !== '%' || last.height?.unit !== '%') return undefined;
  const scaleStep = [levelOf(readingOf('resize'), 'smaller', 'normal'), levelOf(readingOf('resize'), 'larger', 'normal')].includes(last.width.value);
  // "make it smaller, like half the size": the scale said again with its amount is one scale.
  const sameWay = op.width?.unit === '%' && Math.sign(op.width.value - 100) === Math.sign(last.width.value - 100);
  return scaleStep && (op.width?.unit === 'px' || op.height?.unit === 'px' || sameWay) ? op : undefined;
}

const AGAIN_WORDS: ReadonlySet<string> = new Set(['more', 'again', 'another', 'extra', 'further', 'twice']);
/**
 * "zoom out and add some white space around it": even canvas all round, asked twice in a row, is
 * one request said twice; the later says more (its colour). Padded twice, the canvas had doubled.
 */
function paddedAgain(last: EditOperation | undefined, op: EditOperation, said: string): EditOperation | undefined {
  // "… then pad it 20px more", "pad it again": more of it is asked.
  // ("more" only after an amount: "needs more room" is the same canvas said again.)
  const words = wordsOf(said.toLowerCase());
  const again = words.some((word, i) => AGAIN_WORDS.has(word) && (word !== 'more' || quantityOf(words[i - 1] ?? '') !== undefined));
  if (last?.op !== 'pad' || op.op !== 'pad' || again) return undefined;
  const even = (pad: typeof op) => [pad.right, pad.bottom, pad.left].every((side) => side.value === pad.top.value && side.unit === pad.top.unit);
  return even(last) && even(op) ? op : undefined;
}

/**
 * The same look asked for twice in a row is one request said twice ("saturate it, make the
 * colours vivid"; "make it darker, it's way too bright"): the stronger of the two, once. Opposite
 * directions ("make it warmer and cooler") contradict each other and are asked about; geometry
 * ("rotate 90, then rotate 90") is kept twice.
 */
function sameLook(last: EditOperation | undefined, op: EditOperation): EditOperation | undefined {
  if (!last || last.op !== op.op || regionOfStep(last) !== regionOfStep(op)) return undefined;
  // A measured straightening or a trim twice is the first again ("it's crooked, straighten it").
  if (MEASURED.has(op.op) && !('degrees' in op && op.degrees !== undefined) && JSON.stringify(last) === JSON.stringify(op)) return last;
  if (!LOOKS.has(op.op)) return undefined;
  if (JSON.stringify(last) === JSON.stringify(op)) return last;
  // "make it orange and teal", "tint it red, then blue": one wash of colour over another leaves
  // only the second; two colours may mean a duotone or a mistake: asked.
  if (WASHES.has(op.op)) {
    throw new PromptError('ambiguous', op.op, `The prompt asks for two different ${op.op === 'fill' ? 'fills' : 'tints'} one after the other, and the second would cover the first: say one colour, or "duotone" with two.`, []);
  }
  if (!STRENGTHS[op.op]) return undefined;
  const [before, now] = [offsetOf(last), offsetOf(op)];
  if (Math.sign(before) !== Math.sign(now)) {
    throw new PromptError('ambiguous', op.op, `The prompt asks for opposite changes of ${op.op} one after the other; say which one you want.`, []);
  }
  // An amount said wins over the default step ("too dark, brighten it by 10%": the fault asks for
  // the default, the request says how much); two amounts said, the later ("it's way too dark,
  // brighten it slightly"); two defaults are one.
  return isDefaultStep(op) ? last : op;
}

/** Whether a two-way adjustment is its default step either way (brightness 1.25 or 0.8). */
function isDefaultStep(op: EditOperation): boolean {
  const strength = STRENGTHS[op.op]!;
  const normal = strength.ratio ? Math.log(strength.steps.normal / strength.neutral) : strength.steps.normal - strength.neutral;
  return Math.abs(Math.abs(offsetOf(op)) - Math.abs(normal)) < 1e-6;
}

/**
 * What a clause right after an edit may be of besides the whole picture, asked about: a size said
 * bare or of "it" after an edit of a region ("make her face brighter and larger", "blur the
 * background and shrink it": the region's, which only a model could grow or shrink; "… and make
 * the image bigger" is the picture's), and "it" after a thing just added (below).
 */
function assertOfWhatCameBefore(before: EditOperation | undefined, read: EditOperation[], atom: string, p: Protected): void {
  if (!before || read.length === 0) return;
  const said = wordsOf(canonical(atom));
  if (said.some((word) => PICTURE_NOUNS.has(word) || WHOLE_IMAGE.has(word))) return;
  const clause = restore(atom, p);
  // "… and resize to 800 wide": a verb of resizing with its size is the picture's (only a bare
  // "larger" or "shrink it" may be the region's).
  if (regionOfStep(before) && read.some((op) => op.op === 'resize') && !said.some((word) => PICTURE_RESIZE_VERBS.has(word))) {
    throw new PromptError('ambiguous', clause, `"${clause}" may mean the ${regionOfStep(before)} made that size (which needs a model) or the whole picture: say "make the image bigger" for the picture.`, defaultSuggestions());
  }
  // "add the text "hi" and make it lighter", "add a border and make it bigger": "it" after a thing
  // added may be that thing (its colour, width or strength) or the picture; so may a look said
  // with no verb ("add a border but bigger", "add a vignette, lighter").
  const ofIt = said.includes('it') || !said.some(isImperative);
  if (ADDED_THINGS.has(before.op) && ofIt && read.some((op) => op.op !== before.op && OF_AN_ADDED_THING.has(op.op))) {
    throw new PromptError('ambiguous', clause, `"${clause}" may be of the ${before.op.replace('_', ' ')} just added or of the whole picture: say which ("make the text smaller", "make the image lighter").`, defaultSuggestions());
  }
}
/**
 * "add the text "sale" with a white outline": an outline or border said with a text in one clause
 * may be the text's own, which no operation draws; never the picture's border read for it.
 */
function assertNoTextOutline(read: EditOperation[], atom: string, p: Protected): void {
  if (!read.some((op) => op.op === 'text' || op.op === 'watermark') || !read.some((op) => op.op === 'border')) return;
  const clause = restore(atom, p);
  throw new PromptError('ambiguous', clause, `"${clause}" may ask for an outline of the text, which this server does not draw, or a border round the picture: ask for the border on its own ("add a white border").`, defaultSuggestions());
}

/**
 * Readings that the words allow but that may not be what was meant, asked about whatever else the
 * clause says (politeness, run-on requests, an amount): "change the tint from blue to purple" (the
 * blue parts made purple, or the blue wash a purple one: lexicon.ts TINT_NOUNS) and "crop out the
 * background" (cropped close to the subject, or cut away: regions.ts cropsOutBackground).
 */
function assertNoUnsureReading(read: EditOperation[], text: string, p: Protected): void {
  const formOf = (said: string) => normalizeWords(canonicalClause(said).text, isKnownWord).split(' ');
  const tint = (words: string[]) => words.some((word) => TINT_NOUNS.has(word));
  const said = formOf(text);
  const [unsure, test] =
    read.some((op) => op.op === 'replace_color') && tint(said)
      ? [UNSURE_READINGS.tint, tint]
      : read.some((op) => op.op === 'remove_background') && cropsOutBackground(said)
        ? [UNSURE_READINGS.cropOut, cropsOutBackground]
        : read.some((op) => op.op === 'crop_to_region') && cropsOutFace(said)
          ? [UNSURE_READINGS.cropOutFace, cropsOutFace]
          : [undefined, undefined];
  if (unsure === undefined) return;
  // The piece of a run-on that says it ("crop out the background | brighten it"), or all of it.
  const piece = splitRunTogether(text).find((one) => test(formOf(one))) ?? text;
  const clause = restore(piece, p);
  throw new PromptError('ambiguous', clause, `"${clause}" ${unsure}.`, defaultSuggestions());
}
const UNSURE_READINGS = {
  tint: 'may mean the parts of the first colour made the second, or the picture\'s tint of the first colour changed for one of the second: say "change blue to purple" or "remove the blue tint and add a purple tint"',
  cropOut: 'may mean the picture cropped close to the subject or the background cut away (made transparent): say "crop to the subject" or "remove the background"',
  cropOutFace: 'may mean the picture cropped to the face or the face cut away: say "crop to her face" to keep it',
} as const;

/** Things an edit adds to the picture, which "it" after them may stand for. */
const ADDED_THINGS: ReadonlySet<string> = new Set(['text', 'watermark', 'border', 'vignette', 'glow', 'noise', 'pad']);
/** Edits that may be of such a thing (its size, lightness, softness, colour); a turn or a look of the picture may not. */
const OF_AN_ADDED_THING: ReadonlySet<string> = new Set(['resize', 'brightness', 'blur', 'sharpen', 'tint', 'contrast', 'saturation']);

/**
 * "blur the groom and brighten the bride": people named apart, each with an edit of their own, are
 * one of several each; the subject's mask holds them all, so neither edit would be only theirs.
 */
function assertOneSubject(operations: EditOperation[], prompt: string): void {
  // Looks only: a crop to the subject or its cut-out is of all of them whoever is named.
  const edits = new Set(operations.filter((op) => regionOfStep(op) === 'subject' && LOOKS.has(op.op)).map((op) => op.op));
  if (edits.size < 2) return;
  const people = new Set(lettersOf(prompt).filter((word) => regionOf(word) === 'subject' && !PERSON_PRONOUNS.has(word)));
  if (people.size < 2) return;
  throw new PromptError('ambiguous', prompt.slice(0, 80), `The prompt gives ${[...people].join(' and ')} different edits, but the subject is located as one: say one edit for all of them, or edit them one request each.`, []);
}
/** Words of the subject that name no one of several: pronouns, and the words for all of it. */
const PERSON_PRONOUNS: ReadonlySet<string> = new Set(['him', 'her', 'them', 'he', 'she', 'they', 'me', 'us', 'subject', 'subjects', 'foreground', 'people', 'person', 'persons', 'couple', 'family', 'group', 'everyone', 'everybody']);

/** Words of an aside that keep or praise, and pronouns that may stand for what it names. */
const KEEPING_WORDS: ReadonlySet<string> = new Set('na n/a same unchanged none nil as is was no change changes nice good great fine ok okay perfect beautiful lovely awesome amazing gorgeous pretty cute clean cool looks look seems seem are i we really very so quite like love enjoy adore the this that these those its'.split(' '));
const PERSON_PRONOUN_WORDS: ReadonlySet<string> = new Set(['her', 'him', 'them', 'she', 'he', 'they']);

/**
 * "contrast as is, add contrast", "the grain is nice, remove the noise": a quality an aside keeps,
 * changed by the request, is asked about (which is meant?).
 */
function assertKeptUnchanged(asides: string[], operations: EditOperation[], p: Protected): void {
  for (const aside of asides) {
    const said = wordsOf(canonical(aside)).filter((word) => !KEEPING_WORDS.has(word) && !isFiller(word));
    if (said.length === 0 || said.length > 2) continue;
    const kept = [...(readClause(`more ${said.join(' ')}`, p) ?? []), ...(readClause(`add ${said.join(' ')}`, p) ?? [])].map((op) => op.op);
    const changed = operations.find((op) => kept.some((name) => op.op.includes(name) || name.includes(op.op)));
    if (changed) throw new PromptError('ambiguous', restore(aside, p), `"${restore(aside, p)}" keeps what the prompt then changes (${changed.op}): say which you want.`, []);
  }
}

/**
 * "it's too dark but her face is fine", "brighten it, the background looks great": a part said to be
 * fine beside a change of the look of the whole picture, which changes that part too: asked (the
 * whole picture had been brightened, her face with it). An edit of another part leaves it be.
 */
function assertPartSaidFine(asides: string[], operations: EditOperation[], p: Protected): void {
  for (const aside of asides) {
    const words = wordsOf(canonical(aside));
    if (!words.some((word) => FINE_AS_IT_IS.has(word)) || !words.some((word) => (regionOf(word) ?? 'none') !== 'none')) continue;
    const whole = operations.find((op) => regionOfStep(op) === undefined && LOOKS.has(op.op));
    if (!whole) continue;
    const clause = restore(aside, p);
    throw new PromptError('ambiguous', clause, `"${clause}" says a part is fine beside a change of the whole picture (${whole.op}), which changes it too: say the part to edit, e.g. "brighten the background".`, defaultSuggestions());
  }
}

/** A person pronoun after an aside that names people, or "it" after one that names the background, may stand for them. */
function assertPronounOfAside(asides: string[], atom: string, p: Protected): void {
  if (asides.length === 0) return;
  const words = wordsOf(canonical(atom));
  const named = asides.flatMap((aside) => wordsOf(canonical(aside)).map((word) => regionOf(word)));
  // One person named is the one "him" stands for ("this is my son, brighten him"); two are one of several.
  const ofPeople = named.filter((region) => region === 'subject').length > 1 && words.some((word) => PERSON_PRONOUN_WORDS.has(word));
  const ofBackground = named.includes('background') && words.includes('it');
  if (!ofPeople && !ofBackground) return;
  const clause = restore(atom, p);
  throw new PromptError('ambiguous', clause, `"${clause}" may be of ${ofPeople ? 'someone' : 'the background'} named before it or of the whole picture: name what to edit ("brighten the background", "brighten the whole picture").`, defaultSuggestions());
}

/** "i like it", "but i want to keep it": the picture kept as it is, nothing else said. */
function keptAsIs(atom: string): boolean {
  const { text, flags } = canonicalClause(atom);
  return flags.negated && text.trim() === '';
}

/** A clause's words as written, lower case and without marks. */
const canonicalAsSaid = (atom: string): string => wordsOf(atom.toLowerCase()).join(' ');

/** "too dark", "way too warm": a clause that only says a fault (its canonical form is "too" and the fault). */
function isFault(atom: string): boolean {
  return canonicalClause(atom).flags.fault;
}

/** "not brighter", "but not warmer", "without brightening": a clause that is a look said not to be. */
function lookNotWanted(atom: string): boolean {
  const said = wordsOf(canonical(atom)).filter((word) => !isFiller(word) && word !== 'it' && word !== 'just');
  return said.length === 2 && (((said[0] === 'not' || said[0] === 'no') && said[1]!.endsWith('er')) || (said[0] === 'without' && said[1]!.endsWith('ing')));
}

/** Geometry measured from the picture: done twice, the second finds nothing left to do. */
const MEASURED: ReadonlySet<string> = new Set(['straighten', 'trim']);

// Every reading has written its phrases by now (they are imported above): their words become typo
// targets, the same for every request.
takePhraseTargets();
