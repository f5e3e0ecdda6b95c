import type { Region as RegionName } from '../operations/operation.ts';
import { VIVID_WHEN_COLORS } from './adjustment-rules.ts';
import { LOOKS, OPERATIONS, REGION_OPERATIONS, regionOfStep, STEPS } from '../operations/registry.ts';
import type { Color, EditOperation } from '../plan.ts';
import { isFiller, LEVEL_WORDS } from './clause.ts';
import { fromHex, namedColor } from './colors.ts';
import {
  REDUCED_QUALITY_HEADS,
  ANIMAL_OWNERS,
  ANONYMIZING_VERBS,
  AS_IT_IS,
  CLAUSE_JOINS,
  DETERMINERS,
  COLOR_VERBS,
  CROP_VERBS,
  CROP_WORDS,
  CUT_OUT_VERBS,
  BACKGROUND_FAULT_MARKS,
  DESCRIBING_VERBS,
  OUT_VERBS,
  PARTED_FROM,
  EFFECT_WORDS,
  FILL_VERBS,
  AGE_WORDS,
  THING_COLOR_NAMES,
  THING_LEADS,
  BACKGROUND_LOOKS,
  FILL_ADDING_VERBS,
  FORMER_COLOR_LEADS,
  PLACE_PREPOSITIONS,
  PLACE_REGIONS,
  FROM_TO,
  FOREGROUND_THINGS,
  HIDING_VERBS,
  KEEP_VERBS,
  KEPT_AS_IS,
  KEPT_STATES,
  PLACE_LEADS,
  PLACED_ON,
  PLACING_VERBS,
  PICTURE_NOUNS,
  REGION_TIES,
  PICTURE_STATE_LEADS,
  BACKGROUND_SMOOTHING,
  SECOND_OBJECT_VERBS,
  POSSESSIVE_PRONOUNS,
  PRIVACY_WORDS,
  REGION_CAST_WORDS,
  REGION_AMBIGUOUS,
  REGION_EXCEPT,
  REGION_LEADS,
  REGION_PRONOUNS,
  REGION_RELATIONS,
  REGION_SPACES,
  REGION_VERBS,
  REMOVAL_VERBS,
  REMOVAL_WORDS,
  REMOVED_LEADS,
  namesSeveral,
  SHADE_WORDS,
  FADING_TO,
  UNSURE_VERBS,
  regionOf,
  regionWords,
  type Region as PlaceRegion,
  SELECTORS,
  REGION_STATES,
  SKIN_FLAWS,
  SHOWING_VERBS,
  SHOWING_OUTCOMES,
  OUTCOME_VERB_LEADS,
  REGION_OUTCOME_WORDS,
  STANDING_OUT_VERBS,
  DIRECTED,
  NOUNS,
  OPPOSITES,
  REGION_PHRASES,
  CLEARING_VERBS,
  CLEARING_PARTICLES,
  EXCLUDING_WORDS,
  PICTURE_CUTTING_VERBS,
  CENTERING_VERBS,
  VERB_PLACES,
  FACE_ONLY_FLAWS,
  FACE_SKIN_PARTS,
  SKIN_WORDS,
  SKIN_CLEARING_WORDS,
  POINTING_PHRASES,
  ONLY_LEADS,
  FILLING_WORDS,
  FILLING_VERBS,
  SHOWING_WORDS,
  SURPLUS_WORDS,
  LOOK_PHRASES,
  OUTCOME_LEADS,
  STANDING_OUT,
  SUBJECT_PRONOUNS,
  SHADE_INTENSIFIERS,
  SHARED_OBJECT_VERBS,
  SMOOTH_COMPANIONS,
  SMOOTH_WORDS,
  TOTALITY_WORDS,
  WHOLE_IMAGE,
  WHOLE_SPACES,
  TURN_VERBS,
  COLOR_NOUNS,
} from './lexicon.ts';
import { wordsOf } from './phrases.ts';
import { asRequest } from './complaints.ts';
import { isKnownWord, readForm } from './reading.ts';
import { asksForMore, canonicalClause, isImperative, isNoRequest, splitRunTogether, type Protected } from './text.ts';
import { normalizeWords } from './words.ts';

/**
 * Region edits: a clause that edits one region a model can locate, the background, the subject or
 * the faces ("blur the background", "brighten her face", "make the man black and white", "crop to
 * the dog", "make the background white"), planned as steps with a `region` (the registry says which
 * operations take one) or as a region operation (remove_background, fill, smooth, crop_to_region).
 *
 * The clause is read in two parts: the region's phrase (its word, what leads to it, its owner:
 * "the girl's face", "everything around the girl", "the background of this girl"), then the rest as
 * the edit, which must account for every word. Anything else stays refused: two regions, a region
 * no model finds ("the sky", "her hair"), one of several people ("the man on the left").
 */

/** A region's phrase found in a clause: the region, and the words left for the edit. */
interface RegionPhrase {
  region: RegionName;
  rest: string[];
  /** All the words of the clause. */
  clause: string[];
  /** A colour said of the region as it is ("the white background"), or as it should be when no other is named ("add a white background"). */
  described?: Color;
}

/** Words for the picture itself ("image", "photo"), as against the words that say all of it. */
const PICTURE_WORDS: ReadonlySet<string> = new Set([...WHOLE_IMAGE].filter((word) => !TOTALITY_WORDS.has(word)));


/**
 * Words before a picture word that say it is where the edit goes ("add a white background to the
 * image", "from this photo"), or what gets it ("give the photo a white background").
 */
const PICTURE_PLACES: ReadonlySet<string> = new Set(['from', 'to', 'within', 'inside', 'give']);

/** The steps of a clause that edits one located region, or undefined when it is not one. */
export function readRegionEdit(text: string, p: Protected): EditOperation[] | undefined {
  const { text: canonical, flags } = canonicalClause(text);
  if (isNoRequest(flags) || !piecesOfOneRegion(text)) return undefined;
  const words = askersOff(joinsOff(pointingOut(outcomeOut(skinCare(centering(joinSplitRegionWords(regionPhrases(colorCompounds(normalizeWords(canonical, isKnownWord).split(' ').filter(Boolean))))))))));
  // "add a filter in the image to make the background pop": the canonical form keeps only the
  // result; the filter asked for as the means is not said, so no reading.
  if (filterForResult(wordsOf(text.toLowerCase()))) return undefined;
  if (words.some((word) => KEEP_VERBS.has(word))) return readKeeping(words, p);
  // "a white background brighten up the whole image": a clause that names the whole picture is
  // not about one region of it, unless the picture is where the region is ("the background of
  // the whole photo") or all of it but the subject is meant.
  const said = regionPhrases(colorCompounds(canonical.split(' ')));
  // "so the dog fills the whole frame": the picture a region fills is no edit of all of it.
  const wherein = (i: number) => said.slice(Math.max(0, i - 2), i).some((word) => PLACE_LEADS.has(word)) || said.slice(Math.max(0, i - 3), i).some((word) => FILLING_VERBS.has(word));
  const whole = said.some((word, i) => TOTALITY_WORDS.has(word) && PICTURE_WORDS.has(said[i + 1] ?? '') && !wherein(i));
  // "the whole image black and white except the bird": all but the subject is the background.
  if (whole && !said.some((word) => REGION_EXCEPT.has(word))) return undefined;
  const cleared = clearedBackground(words);
  if (cleared) return cleared;
  if (regionPastPictureObject(said)) return undefined;
  if (!oneSubjectOfEdits(words) || purposeClause(words) || words.some((word) => REGION_AMBIGUOUS.has(word))) return undefined;
  const parted = cutFromBackground(words) ?? cropSoOnly(words) ?? cropExcluding(words, said);
  if (parted) return parted;
  const implied = findRegion(words) === undefined ? faceOfFlaws(words) : undefined;
  const found = implied ?? findRegion(words);
  if (!found) return undefined;
  // "blur around his face", "darken behind their faces": the space round a face is no region
  // located (round a person it is the background: "darken around him").
  if (found.region === 'face' && aroundFace(said)) return undefined;
  // "blur everyone but me", "make everybody except him black and white": all the people but one
  // is one of several, which no model singles out.
  if (said.some((word) => EVERYONE.has(word)) && said.some((word) => REGION_EXCEPT.has(word))) return undefined;
  // "brighten this family photo", "make the baby picture black and white": who a picture is of,
  // said before its noun, says which picture, as "the photo of my mom" does.
  if (found.region === 'subject' && said.some((word, i) => regionOf(stripPossessive(word)) === 'subject' && PICTURE_WORDS.has(said[i + 1] ?? ''))) return undefined;
  const phrase = asDescribed(found);
  if (!phrase) return undefined;
  const read = readEdit(phrase, p);
  // "remove the acne": the face named by its flaws is only smoothed.
  if (implied && !read?.every((op) => op.op === 'smooth')) return undefined;
  // "give the dog a bokeh effect": a word for the background's own look said of another region.
  if (canonical.split(' ').some((word) => BACKGROUND_LOOKS.has(word)) && found.region !== 'background') return undefined;
  // "change the background lighten up the picture": the picture named as what is edited is not
  // one region of it; only a crop to a region is said so ("crop the photo to the dog").
  const allBut = said.some((word) => REGION_EXCEPT.has(word));
  return read && !allBut && picturesEdited(said) && !read.every((op) => op.op === 'crop_to_region') ? undefined : read;
}

/**
 * "increase the brightness blur the background", "blur the background increase the saturation":
 * requests run together without punctuation, each with its verb and object, are read one by one
 * (as with a comma between them), never all as edits of the one region named. Together only when
 * each piece names a region or refers back to one ("darken the background blur it", "… replace with
 * white"), or is a verb alone ("crop zoom in on her").
 */
function piecesOfOneRegion(text: string): boolean {
  const pieces = splitRunTogether(text);
  if (pieces.length < 2) return true;
  const first = normalizeWords(canonicalClause(pieces[0]!).text, isKnownWord).split(' ').filter(Boolean);
  return pieces.every((piece) => {
    const words = normalizeWords(canonicalClause(piece).text, isKnownWord).split(' ').filter(Boolean);
    // "remove the background replace with white": a plain colour alone is the region's too.
    const colorOnly = (targetColor(words) !== undefined && words.every((word) => FILL_VERBS.has(word) || isColorWord(word))) || colorOne(words, first);
    // "slightly blur the background": a degree said before its verb is of the piece after it.
    const degree = words.length > 0 && words.every((word) => word === LEVEL_WORDS.slight || word === LEVEL_WORDS.strong || isFiller(word));
    return colorOnly || degree || words.every((word) => isBareVerb(word) || isFiller(word)) || words.some((word) => REGION_PRONOUNS.has(word) || REGION_SPACES.has(word) || regionOf(word) !== undefined || regionOf(stripPossessive(word)) !== undefined);
  });
}

/**
 * "make it black and white but keep the girl in colour", "keep the background as it is and
 * brighten the kids": a part kept as it is beside an edit of the picture (or of the other part)
 * is that edit of the rest: the background when the subject is kept, the subject when the
 * background is. Anything else said of the kept part, or an edit that cannot be confined, is no reading.
 */
function readKeeping(words: string[], p: Protected): EditOperation[] | undefined {
  const at = words.findIndex((word) => KEEP_VERBS.has(word));
  let end = at + 1;
  while (end < words.length && !CLAUSE_JOINS.has(words[end]!)) end++;
  let start = at;
  while (start > 0 && CLAUSE_JOINS.has(words[start - 1]!)) start--;
  const kept = findRegion(words.slice(at + 1, end));
  if (!kept || !kept.rest.every((word) => KEPT_AS_IS.has(word) || isFiller(word))) return undefined;
  const other = kept.region === 'subject' ? 'background' : kept.region === 'background' ? 'subject' : undefined;
  // "blur the rest", "make everything else black and white": the rest is the other part.
  const edit = [...words.slice(0, start), ...words.slice(end + 1)].filter((word) => !REGION_SPACES.has(word) && word !== 'else');
  if (!other || edit.length === 0) return undefined;
  const said = findRegion(edit);
  if (said) return said.region === other ? readEdit(said, p) : undefined;
  // An edit of the picture is of the rest only when the kept part's state is said ("in colour", "as it is").
  if (!kept.rest.some((word) => KEPT_STATES.has(word))) return undefined;
  const read = readLooks(edit, p);
  if (!read || read.length === 0 || !read.every((op) => REGION_OPERATIONS.get(op.op)?.includes(other) && LOOKS.has(op.op))) return undefined;
  return read.map((op) => ({ ...op, region: other }) as EditOperation);
}

/**
 * Whether a picture word stands as what is edited ("lighten up the picture"), not as where the
 * region is ("the background of the photo", "from this image") or as what the region is ("the
 * image background", "the photo of her face").
 */
function picturesEdited(said: string[]): boolean {
  return said.some((word, i) => {
    // "the image background", "the background image", "the photo of her face": the picture word says what the region is.
    if (!PICTURE_WORDS.has(word) || regionOf(said[i + 1] ?? '') !== undefined || regionOf(said[i - 1] ?? '') !== undefined || said[i + 1] === 'of') return false;
    // "place the image on a white background": the picture placed is what is in front, not edited.
    const place = (w: string) => PLACE_LEADS.has(w) || PICTURE_PLACES.has(w) || PLACING_VERBS.has(w);
    const before = said.slice(Math.max(0, i - 3), i).filter((w) => !REGION_LEADS.has(w) || place(w));
    return !place(before.at(-1) ?? '');
  });
}

/**
 * "sharpen it thanks man", "brighten it my friend", "make it black and white i like the
 * background": the first verb's object is the picture ("it", "this", "the image"), and a region
 * named after it with no word that ties it to the edit (REGION_TIES) is whom the request is
 * addressed to or a remark, not what the edit is of. A verb that gives a second object ("give it
 * a white background") takes the region as the thing given.
 */
function regionPastPictureObject(said: string[]): boolean {
  const verb = said.findIndex((word) => isImperative(word));
  if (verb < 0) return false;
  // "this" leads a noun more often than it stands for the picture ("make this background white").
  const object = said[verb + 1] === 'it' ? verb + 2 : (said[verb + 1] === 'the' || said[verb + 1] === 'this' || said[verb + 1] === 'my') && PICTURE_WORDS.has(said[verb + 2] ?? '') ? verb + 3 : -1;
  // "remove the image background": a picture word right before a region's says which region it is.
  if (object < 0 || (object === verb + 3 && regionOf(said[object]!) === 'background')) return false;
  const region = said.findIndex((_, i) => i >= object && regionWord(said, i) !== undefined);
  if (region < 0) return false;
  if (SECOND_OBJECT_VERBS.has(said[verb]!)) return false;
  return !said.slice(object, region).some((word) => REGION_TIES.has(word));
}

/**
 * "blur the background so the dog stands out", "darken the backdrop to make her pop", "lighten
 * the background so you can see her face": the outcome (the subject or the faces, or "she",
 * "they", showing more) taken off the end, when a region's edit is before it.
 */
function outcomeOut(words: string[]): string[] {
  for (const lead of OUTCOME_LEADS) {
    const at = words.findIndex((_, i) => i > 0 && lead.every((word, k) => words[i + k] === word));
    if (at < 0) continue;
    const outcome = words.slice(at + lead.length);
    // "so we can see her face": a region named is what shows; else the pronoun that starts it ("so I stand out").
    const said = findRegion(outcome) ?? (outcome[0] !== undefined && SUBJECT_PRONOUNS.has(outcome[0]) ? { region: 'subject', rest: outcome.slice(1) } : undefined);
    const before = findRegion(words.slice(0, at));
    const saysOutcome = said !== undefined && (said.rest.length > 0 || OUTCOME_VERB_LEADS.includes(lead));
    if ((said?.region === 'subject' || said?.region === 'face') && saysOutcome && said.rest.every((word) => STANDING_OUT.has(word)) && before !== undefined) return words.slice(0, at);
    if (said === undefined && before !== undefined && thingShows(outcome)) return words.slice(0, at);
    // "so it stands out", "to make it less distracting": the region edited, said again as "it".
    const again = outcome[0] === 'it' && outcome.slice(1).every((word) => STANDING_OUT.has(word) || REGION_OUTCOME_WORDS.has(word)) && outcome.some((word) => STANDING_OUT_VERBS.has(word));
    if (again && before !== undefined) return words.slice(0, at);
  }
  return words;
}

/**
 * "so that the tree is visible", "so the sign is readable": a thing (one or two words, none a
 * colour, a look or a located region; a thing no model finds may be named) said to show, and nothing else.
 */
function thingShows(outcome: string[]): boolean {
  const thing = outcome.filter((word) => !STANDING_OUT.has(word) && !SHOWING_OUTCOMES.has(word));
  const edits = (word: string) => namedColor(word) !== undefined || word in DIRECTED || word in NOUNS || word in OPPOSITES || (regionOf(word) ?? 'none') !== 'none' || REGION_STATES.has(word);
  return outcome.some((word) => SHOWING_OUTCOMES.has(word)) && thing.length > 0 && thing.length <= 2 && !thing.some(edits);
}

/**
 * "crop it so only the girl shows", "crop so just their faces are visible", "crop it to show only
 * the man": a crop whose result is one region alone is a crop to it. The crop says nothing else; the result only that the region shows.
 */
function cropSoOnly(words: string[]): EditOperation[] | undefined {
  // "so (that) only …", "to show only …", "to just show …", "showing just …".
  const shows = (i: number) => SHOWING_VERBS.has(words[i] ?? '') || (ONLY_LEADS.has(words[i] ?? '') && SHOWING_VERBS.has(words[i + 1] ?? ''));
  const at = words.findIndex((word, i) => word === 'so' || (word === 'to' && shows(i + 1)) || (SHOWING_VERBS.has(word) && ONLY_LEADS.has(words[i + 1] ?? '')));
  if (at < 1 || !asksCrop(words.slice(0, at)) || !words.slice(0, at).every((word) => CROP_WORDS.has(word) || isFiller(word))) return undefined;
  let from = words[at] === 'so' || words[at] === 'to' ? at + 1 : at;
  if (words[from] === 'that') from++;
  if (SHOWING_VERBS.has(words[from] ?? '')) from++;
  if (!ONLY_LEADS.has(words[from] ?? '')) return words[at] === 'so' ? cropSoFills(words.slice(from)) : undefined;
  const shown = findRegion(words.slice(from + 1));
  if ((shown?.region !== 'subject' && shown?.region !== 'face') || !shown.rest.every((word) => SHOWING_WORDS.has(word) || isFiller(word))) return undefined;
  return [{ op: 'crop_to_region', region: shown.region, margin: CROP_MARGIN }];
}

/**
 * "crop it so he fills the frame", "crop so that the couple takes up the whole picture": the result
 * is the region filling the picture, so the crop is to it. One of several or a part stays unread.
 */
function cropSoFills(outcome: string[]): EditOperation[] | undefined {
  const said = findRegion(outcome) ?? (outcome[0] !== undefined && SUBJECT_PRONOUNS.has(outcome[0]) ? { region: 'subject' as const, rest: outcome.slice(1) } : undefined);
  if (said?.region !== 'subject' && said?.region !== 'face') return undefined;
  if (!said.rest.some((word) => FILLING_VERBS.has(word)) || !said.rest.every((word) => FILLING_WORDS.has(word) || isFiller(word))) return undefined;
  return [{ op: 'crop_to_region', region: said.region, margin: CROP_MARGIN }];
}

/** "everything other than the dog", "touch up her face": a phrase read as its one word ("except", "retouch"). */
function regionPhrases(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const phrase = REGION_PHRASES.find(([said]) => said.every((word, k) => words[i + k] === word));
    if (phrase) i += phrase[0].length - 1;
    out.push(phrase ? phrase[1] : words[i]!);
  }
  return out;
}

/**
 * "a navy blue background", "change it to lime green": a colour named in two words is one colour,
 * not two. When its first word also names a region ("baby", "sky") it is the colour's only after
 * a word that leads to a colour ("a baby blue tint", "to baby blue") or the region it colours: "make the baby blue" is of the baby.
 */
function colorCompounds(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    // "a light shade of blue": the shade's noun and its "of" say the colour's shade; "a blue coloured backdrop": the colour.
    if (SHADE_NOUNS.has(words[i]!) && words[i + 1] === 'of' && isColorWord(words[i + 2] ?? '')) {
      i++;
      continue;
    }
    if (COLORED.has(words[i]!) && isColorWord(out.at(-1) ?? '')) continue;
    const [first, second] = [words[i]!, words[i + 1]];
    const named = second !== undefined && !SHADE_WORDS.has(first) && namedColor(second) !== undefined && namedColor(`${first}${second}`) !== undefined;
    // "make the toddler baby blue": after the region it colours, too.
    const led = COLOR_LEADS.has(out.at(-1) ?? '') || regionOf(out.at(-1) ?? '') !== undefined;
    if (named && (regionOf(first) === undefined || led)) {
      out.push(`${first}${second}`);
      i++;
    } else out.push(first);
  }
  return out;
}
const SHADE_NOUNS: ReadonlySet<string> = new Set(['shade', 'tone', 'hue']);
const COLORED: ReadonlySet<string> = new Set(['colored', 'coloured']);
/** A colour's noun after its name (\"gold colour\", \"a snow coloured backdrop\"): the name is the colour. */
const COLOR_HEAD_NOUNS: ReadonlySet<string> = new Set(['color', 'colour', 'colored', 'coloured', 'tone', 'shade']);
/** Words after which a colour's name comes, not a region's ("a baby blue tint", "to sky blue"). */
const COLOR_LEADS: ReadonlySet<string> = new Set(['a', 'an', 'to', 'into']);

/** "center on the people", "crop it to center the baby": the centring verb is a crop to what it centres. */
const centering = (words: string[]): string[] => words.map((word, i) => (CENTERING_VERBS.has(word) && (i === 0 || VERB_PLACES.has(words[i - 1]!)) ? 'crop' : word));

/**
 * The skin's care said in other words than a smoothing's: "clear up her skin", "clean up his complexion" smooth it; "airbrush her forehead and cheeks"
 * smooths the skin of the face (parts no model outlines alone, read as the face only beside a
 * smoothing or flaws taken away).
 */
function skinCare(words: string[]): string[] {
  const skin = words.some((word) => SKIN_WORDS.has(word));
  const out = words.map((word) => (skin && SKIN_CLEARING_WORDS.has(word) ? 'smooth' : word));
  const named = new Set(out.map((word) => FACE_SKIN_PARTS.get(word)).filter((part) => part !== undefined));
  if (!out.some((word) => SMOOTH_WORDS.has(word) || SKIN_FLAWS.has(word)) || named.size < 2) return out;
  // "her forehead, cheeks and chin": the parts in a row are one face's skin.
  const parts = out.map((word) => (FACE_SKIN_PARTS.has(word) ? 'skin' : word));
  return parts.filter((word, i) => !(word === 'skin' && (parts[i - 1] === 'skin' || (parts[i - 1] === 'and' && parts[i - 2] === 'skin'))) && !(word === 'and' && parts[i - 1] === 'skin' && parts[i + 1] === 'skin'));
}

/** "remove the acne", "get rid of the pimples": flaws only skin has name the face, when the clause names no region. */
function faceOfFlaws(words: string[]): RegionPhrase | undefined {
  if (!words.some((word) => FACE_ONLY_FLAWS.has(word)) || words.some((word) => regionOf(stripPossessive(word)) !== undefined || regionOf(word) !== undefined || SELECTORS.has(word))) return undefined;
  return { region: 'face', rest: words, clause: words };
}

/** "clear the background", "clear away the backdrop": the background, the object of the clearing verb, taken away. */
function clearedBackground(words: string[]): EditOperation[] | undefined {
  // "clear the background of people": what is cleared away is named, and it is not the background.
  if (!CLEARING_VERBS.has(words[0] ?? '') || words.some((word) => [regionOf(word), regionOf(stripPossessive(word))].some((region) => region !== undefined && region !== 'background'))) return undefined;
  const found = findRegion(words.slice(1));
  const particles = found?.rest.every((word) => CLEARING_PARTICLES.has(word) || (isFiller(word) && word !== 'up'));
  return found?.region === 'background' && particles ? [{ op: 'remove_background', region: 'background' }] : undefined;
}

/**
 * "crop the photo to exclude the background", "cut the picture without the background", "crop
 * her face only, without background": a crop that leaves the background out is a crop to the
 * subject, or to the faces when they are named. The crop says nothing else.
 */
function cropExcluding(words: string[], said: string[]): EditOperation[] | undefined {
  const at = words.findIndex((word) => EXCLUDING_WORDS.has(word));
  const left = at > 0 ? findRegion(words.slice(at + 1)) : undefined;
  if (left?.region !== 'background' || !left.rest.every((word) => isFiller(word))) return undefined;
  // "crop her face only": the region alone is what the crop keeps, no one of several.
  const before = words.slice(0, at).filter((word) => !ONLY_LEADS.has(word));
  // "cut the picture": a cut whose object is the picture is a crop.
  const cutsPicture = said.some((word, i) => PICTURE_CUTTING_VERBS.has(word) && said.slice(i + 1, i + 3).some((next) => PICTURE_WORDS.has(next)));
  if (!asksCrop(before) && !cutsPicture) return undefined;
  const kept = findRegion(before);
  const region = kept?.region ?? 'subject';
  const rest = kept?.rest ?? before;
  if (region === 'background' || !rest.every((word) => CROP_WORDS.has(word) || (cutsPicture && PICTURE_CUTTING_VERBS.has(word)) || isFiller(word))) return undefined;
  return [{ op: 'crop_to_region', region, margin: CROP_MARGIN }];
}

/**
 * "my friends want it brighter", "the kids want the background blurred": the people named first,
 * before a verb of wanting, ask for the edit; they are not what it is of.
 */
function askersOff(words: string[]): string[] {
  let i = 0;
  while (i < words.length && REGION_LEADS.has(words[i]!) && regionOf(words[i]!) === undefined) i++;
  // "the girl needs to be brighter" is of her.
  const asker = i < words.length && regionOf(words[i]!) === 'subject' && WANTING_VERBS.has(words[i + 1] ?? '') && words[i + 2] !== 'to';
  return asker ? words.slice(i + 2) : words;
}
const WANTING_VERBS: ReadonlySet<string> = new Set(['want', 'wants', 'wanted', 'need', 'needs', 'would', 'asked', 'asks', 'likes', 'prefer', 'prefers']);

/**
 * "make the background white and" (before "add text …", set aside as a clause of its own): a word
 * that joins clauses, left at either end of one, joins it to nothing of its own.
 */
function joinsOff(words: string[]): string[] {
  let [start, end] = [0, words.length];
  while (start < end && EDGE_JOINS.has(words[start]!)) start++;
  while (end > start && EDGE_JOINS.has(words[end - 1]!)) end--;
  return words.slice(start, end);
}
const EDGE_JOINS: ReadonlySet<string> = new Set(['and', 'then', 'also', 'plus']);

/** "brighten the faces right there": words that point at the picture, at the end of the clause, taken off. */
function pointingOut(words: string[]): string[] {
  const phrase = POINTING_PHRASES.find((said) => said.length < words.length && said.every((word, k) => words[words.length - said.length + k] === word));
  return phrase ? words.slice(0, words.length - phrase.length) : words;
}

/**
 * "cut the dog out of the backdrop", "isolate her from the background", "crop the bird out of the
 * background": the subject parted from the background is the background taken away. The verb is
 * one that keeps what it takes out (with "out" when it needs it); nothing else may be said.
 */
function cutFromBackground(words: string[]): EditOperation[] | undefined {
  for (const lead of PARTED_FROM) {
    const at = words.findIndex((_, i) => i > 0 && lead.every((word, k) => words[i + k] === word));
    if (at < 0) continue;
    // "crop the image from the background": the picture cut from its background (its word is taken
    // out by now) is what is in front of it.
    const before = words.slice(0, at);
    const kept = findRegion(before) ?? { region: 'subject', rest: before };
    const from = findRegion(words.slice(at + lead.length));
    if (kept?.region !== 'subject' || from?.region !== 'background' || from.rest.some((word) => !isFiller(word))) continue;
    const verbs = kept.rest.filter((word) => !isFiller(word));
    // "crop the dog from the background": parted from it, as "out of" it; "crop the dog" alone keeps the crop's sense.
    const out = true;
    const keeping = verbs.every((word) => CUT_OUT_VERBS.has(word) || (out && OUT_VERBS.has(word)) || word === 'out');
    if (verbs.length > 0 && keeping && verbs.some((word) => word !== 'out')) return [{ op: 'remove_background', region: 'background' }];
  }
  return undefined;
}

/**
 * Clauses joined by "and" are about the region only when it is named in the first and the others
 * refer back to it ("blur the background and make it grey"); "change the background, and add a
 * black and white effect" edits the picture after a refused change of the background.
 */
function oneSubjectOfEdits(words: string[]): boolean {
  const parts: string[][] = [[]];
  for (const [i, word] of words.entries()) {
    // "black and white", "the kid and the man": an "and" inside a phrase, not between clauses.
    const next = words[i + 1] ?? '';
    const inside = word === 'and' && (namedColor(next) !== undefined || regionOf(next) !== undefined || REGION_LEADS.has(next) || isPossessive(words, i + 1) || SHADE_WORDS.has(next));
    if (word === 'and' && !inside && parts.at(-1)!.length > 0) parts.push([]);
    else parts.at(-1)!.push(word);
  }
  // "brighten and sharpen the background", "crop and zoom in on her": verbs alone before the
  // part that names the region share its object.
  // "zoom in and center on her": a crop with its particle, before another crop, is the same crop.
  const bare = (part: string[], next: string[]) => part.every((word) => isBareVerb(word) || (CROP_WORDS.has(word) && asksCrop(part) && asksCrop(next)));
  // "blur, darken and desaturate the background": a list of verbs alone, all before that part, too.
  const named = parts.findIndex((part) => findRegion(part) !== undefined);
  if (named > 1 && parts.slice(0, named).every((part, k) => bare(part, parts[k + 1]!))) parts.splice(0, named + 1, parts.slice(0, named + 1).flatMap((part, k) => (k === 0 ? part : ['and', ...part])));
  while (parts.length > 1 && bare(parts[0]!, parts[1]!) && findRegion(parts[1]!) !== undefined) parts.splice(0, 2, [...parts[0]!, 'and', ...parts[1]!]);
  if (parts.length === 1) return true;
  const [first, ...others] = parts;
  // "remove the background and make white": a colour alone carries on with the region too.
  // "make the background darker and blurry": a look with no verb of its own is said of the same thing.
  // "make her face brighter and smoother": a smoothing, which only a face takes, as well.
  const smoothing = (part: string[]) => part.some((word) => SMOOTH_WORDS.has(word)) && part.every((word) => SMOOTH_WORDS.has(word) || SMOOTH_COMPANIONS.has(word) || isFiller(word));
  const sameObject = (part: string[]) =>
    !asksForMore(part.join(' ')) && part.every((word) => !REGION_LEADS.has(word) && regionOf(word) === undefined) && ((readForm(part.join(' '), NO_QUOTES)?.length ?? 0) > 0 || smoothing(part));
  // "crop close on her face, then black and white": after a crop to the region, the region is the
  // picture; a look said with no object of its own is of all of it.
  const refersBack = (part: string[]) =>
    part.some((word) => REGION_PRONOUNS.has(word)) || (targetColor(part) !== undefined && part.every((word) => FILL_VERBS.has(word) || isColorWord(word))) || colorOne(part, first!) || (sameObject(part) && !asksCrop(first!));
  return findRegion(first!) !== undefined && others.every((part) => refersBack(part) && !part.some((word) => regionOf(word) !== undefined));
}

/**
 * "remove the background and add a grey one", "… put a plain white one in": after the background
 * taken away, a colour after "a" with no noun of its own ("one" is dropped from the canonical form)
 * is the background, filled with it, whatever verb adds it (read alone, "add a grey one" was a grey look).
 */
const colorOne = (part: string[], first: string[]): boolean =>
  first.some((word) => REMOVAL_WORDS.has(word) || REMOVAL_VERBS.has(word)) &&
  (part.includes('a') || part.includes('an')) &&
  targetColor(part) !== undefined &&
  part.some((word) => PLACING_VERBS.has(word) || FILL_ADDING_VERBS.has(word)) &&
  part.every((word) => FILL_VERBS.has(word) || isColorWord(word) || PLACING_VERBS.has(word) || FILL_ADDING_VERBS.has(word) || word === 'in');

/** A word that is an edit's verb with no object of its own ("brighten", "crop", "zoom"). */
const isBareVerb = (word: string): boolean => {
  if (SHARED_OBJECT_VERBS.has(word)) return true;
  // Each word of each piece of a run-on clause is asked, and reading one is a clause's whole
  // reading: answers are kept, up to a bound, since the same words come back in every clause.
  let known = bareVerbAnswers.get(word);
  if (known === undefined) {
    if (bareVerbAnswers.size >= MAX_BARE_VERB_ANSWERS) bareVerbAnswers.clear();
    known = (readForm(word, NO_QUOTES)?.length ?? 0) > 0;
    bareVerbAnswers.set(word, known);
  }
  return known;
};
const bareVerbAnswers = new Map<string, boolean>();
const MAX_BARE_VERB_ANSWERS = 4096;
const NO_QUOTES: Protected = { text: '', quotes: [], files: [] };

/** "add a filter to make the background pop" as written: an effect's kind named, then what it should do. */
const filterForResult = (words: string[]): boolean => {
  const at = words.findIndex((word, i) => word === 'to' && (words[i + 1] === 'make' || words[i + 1] === 'get'));
  return at > 0 && words.slice(0, at).some((word) => EFFECT_WORDS.has(word));
};

/** "add a filter to make the background pop": the edit asked is the means, not said. */
const purposeClause = (words: string[]): boolean => words.some((word, i) => i > 0 && word === 'to' && (words[i + 1] === 'make' || words[i + 1] === 'get'));

/**
 * The region a clause about new content is confined to, when it names exactly one that a mask
 * can bound ("replace the background with a beach": the background; "make her smile": no region
 * word, none). Only the background and the faces: what is added to a subject may reach past its
 * outline (a hat on the dog).
 */
export function generativeRegion(text: string): { region?: 'background' | 'face' } {
  const words = joinSplitRegionWords(normalizeWords(canonicalClause(text).text, isKnownWord).split(' ').filter(Boolean));
  const phrase = findRegion(words);
  return phrase && (phrase.region === 'background' || phrase.region === 'face') ? { region: phrase.region } : {};
}

/** The words of a region's phrase taken out, or undefined when the clause names none, two, or one no model finds. */
function findRegion(words: string[]): RegionPhrase | undefined {
  if (words.some((word) => regionOf(word) === 'none' || SELECTORS.has(word))) return undefined;
  const owners = new Set<number>();
  const found = new Set<RegionName>();
  const taken = new Set<number>();
  let described: Color | undefined;
  const takeLeads = (i: number, withColor: boolean) => {
    // A colour says which region it is only next to its word ("the white background", "a solid
    // blue backdrop"), not past a lead ("add blue to the background": the colour added).
    let adjacent = true;
    for (let j = i - 1; j >= 0 && !taken.has(j); j--) {
      const color = withColor && adjacent && words[j - 1] !== 'to' ? namedColor(words[j]!) : undefined;
      // "the bright background": how it is, said between its determiner and its word.
      const state = adjacent && j === i - 1 && REGION_STATES.has(words[j]!) && DETERMINERS.has(words[j - 1] ?? '');
      if (state) {
        taken.add(j);
        continue;
      }
      if (!REGION_LEADS.has(words[j]!) && !REGION_SPACES.has(words[j]!) && !SOLID.has(words[j]!) && !color) break;
      if (REGION_LEADS.has(words[j]!) && !color) adjacent = false;
      taken.add(j);
      if (!color) continue;
      // "a light blue background": the shade belongs to the colour.
      const shaded = j > 0 && SHADE_WORDS.has(words[j - 1]!) ? namedColor(`${words[j - 1]}${words[j]}`) : undefined;
      described = shaded ?? color;
      if (shaded) taken.add(--j);
    }
  };
  for (const [i, word] of words.entries()) {
    // "everything around the girl", "the area behind the logo", "except the bird": the background.
    // "blur behind her", "darken around the dog": what is round the subject, said without a space
    // word too, except by a crop ("crop around the girls" is to them).
    const spaced = words.slice(Math.max(0, i - 3), i).some((w) => REGION_SPACES.has(w) || regionOf(w) === 'background');
    const relation = REGION_RELATIONS.has(word) && (spaced || !asksCrop(words));
    const except = REGION_EXCEPT.has(word);
    if ((relation || except) && thingAfter(words, i + 1, taken)) {
      found.add('background');
      taken.add(i);
      // A colour before the relation says what the space is only with a space word ("everything around her white"; "add blue behind her" adds some).
      takeLeads(i, relation && spaced);
      // "colour everything black and white except the bird": everything else is the background.
      if (except) words.forEach((w, j) => w === 'everything' && taken.add(j));
    }
  }
  for (let i = 0; i < words.length; i++) {
    if (taken.has(i)) continue;
    const region = regionWord(words, i);
    if (region === undefined) continue;
    // "her face", "the man's face", "the kid and man face", "the background of this girl",
    // "give this baby a white background": the subject there owns the region named.
    if (region === 'subject' && ownerOf(words, i)) {
      owners.add(i);
      continue;
    }
    found.add(region);
    taken.add(i);
    // What leads to it belongs to its phrase ("of the little", "on his"), as does a colour that
    // says which it is ("the white background"; the colour wanted when no other is named).
    takeLeads(i, region === 'background');
  }
  for (const i of owners) {
    taken.add(i);
    for (let j = i - 1; j >= 0 && !taken.has(j) && (REGION_LEADS.has(words[j]!) || words[j] === 'and' || regionOf(stripPossessive(words[j]!)) === 'subject'); j--) taken.add(j);
  }
  if (found.size !== 1) return undefined;
  if (found.has('face') && [...owners].some((i) => ANIMAL_OWNERS.has(stripPossessive(words[i]!)) || ANIMAL_OWNERS.has(words[i]!))) return undefined;
  return { region: [...found][0]!, rest: words.filter((_, i) => !taken.has(i)), clause: words, described };
}

/** The region a word names: "girl's" and "mans" are the girl's and the man's. */
function regionWord(words: string[], i: number): RegionName | undefined {
  const word = words[i]!;
  // "her face": the possessive leads to the region after it.
  if (POSSESSIVE_PRONOUNS.has(word) && regionWord(words, i + 1) !== undefined) return 'subject';
  const region = regionOf(word) ?? (isPossessive(words, i) ? regionOf(stripPossessive(word)) : undefined);
  return region === 'none' ? undefined : region;
}

/** A region word as it is ("us", "ourselves" end in "s" and own nothing), else the word less its possessive's "s". */
const stripPossessive = (word: string): string => (regionOf(word) === undefined ? word.replace(/'s$|s'$|s$/, '') : word);
/** "girl's", or "mans" before a region word ("the mans face"). */
const isPossessive = (words: string[], i: number): boolean => /'s$|s'$/.test(words[i]!) || (/s$/.test(words[i]!) && regionOf(words[i + 1] ?? '') === 'face');

/** Whether the subject word at i owns another region named with it, rather than being the region edited. */
function ownerOf(words: string[], i: number): boolean {
  const word = words[i]!;
  if (POSSESSIVE_PRONOUNS.has(word) && regionWord(words, i + 1) !== undefined) return true;
  if (isPossessive(words, i)) return true;
  // "the kid and man face", "the faces of the kids", "the background of this girl".
  const next = words.slice(i + 1).find((w) => !REGION_LEADS.has(w) && w !== 'and' && regionOf(stripPossessive(w)) !== 'subject');
  if (next !== undefined && regionOf(next) === 'face') return true;
  const before = words.slice(0, i).filter((w) => !(REGION_LEADS.has(w) && w !== 'of'));
  const last = before.at(-1);
  if (last === 'of' && (regionOf(before.at(-2) ?? '') === 'face' || regionOf(before.at(-2) ?? '') === 'background')) return true;
  // "give this baby a white background": the one given a background is its owner.
  // "give him smoother skin": and the one given a face.
  if ((before.at(-1) === 'give' || before.at(-1) === 'gave') && words.slice(i + 1).some((w) => regionOf(w) === 'background' || regionOf(w) === 'face')) return true;
  // "put her on a white background": the one put on a plain colour keeps its place; the rest is filled.
  return PLACING_VERBS.has(before.at(-1) ?? '') && placedOnColor(words.slice(i + 1));
}

/** "on a plain white background": a placing word, then only the words of a colour's phrase up to the background word. */
function placedOnColor(after: string[]): boolean {
  const at = after.findIndex((word) => regionOf(word) === 'background');
  const between = after.slice(0, at);
  return (
    at > 0 &&
    PLACED_ON.has(between[0] ?? '') &&
    between.slice(1).every((word) => REGION_LEADS.has(word) || SOLID.has(word) || isColorWord(word) || word === 'a' || word === 'an') &&
    targetColor(between) !== undefined
  );
}

/** Words that take the people or faces one by one ("each face", "every person"). */
const EACH_WORDS: ReadonlySet<string> = new Set(['each', 'every', 'individually', 'separately']);

/** A subject or foreground thing right after a relation word ("around the girl", "except of the bird"); its words taken. */
function thingAfter(words: string[], from: number, taken: Set<number>): boolean {
  let j = from;
  // "behind her": a lead that is itself a subject word, with no thing after it, is the thing.
  const thing = (k: number) => regionOf(stripPossessive(words[k] ?? '')) === 'subject' || FOREGROUND_THINGS.has(words[k] ?? '');
  while (j < words.length && (REGION_LEADS.has(words[j]!) || words[j] === 'for' || words[j] === 'than') && !(thing(j) && !thing(j + 1) && !REGION_LEADS.has(words[j + 1] ?? ''))) j++;
  const first = j;
  // "the bike and its rider": a lead inside the list belongs to the thing after it.
  const leadToThing = (k: number) => {
    while (k < words.length && REGION_LEADS.has(words[k]!)) k++;
    return k < words.length && thing(k);
  };
  while (j < words.length && (thing(j) || (words[j] === 'and' && j > first) || (j > first && REGION_LEADS.has(words[j]!) && leadToThing(j)))) j++;
  if (j === first) return false;
  for (let k = from; k < j; k++) taken.add(k);
  return true;
}

/**
 * "the background is white", "her face looks orange": a region said to be so, with no fault in it
 * that asks for a fix, is how the picture is, not an edit (its refusal's reason is a statement).
 */
export function isRegionStatement(form: string): boolean {
  const found = findRegion(form.split(' ').filter(Boolean));
  return found !== undefined && asDescribed(found) === undefined;
}

/**
 * "the background is blurry", "her face looks washed out", "the backdrop has a yellow tint": the
 * region said to be so, read as the same words said of the whole picture are ("it is blurry"
 * asks for sharper, "it has a yellow tint" for less yellow, "it is white" is no request), then
 * confined to the region. Never the look itself: a fault is not what is asked for.
 */
function asDescribed(phrase: RegionPhrase): RegionPhrase | undefined {
  // "the colours in the background are dull", "the colours on her face are washed out": the
  // region's colours said to be so, read as "the colours are dull" is (a fault, as its fix),
  // confined to the region; said to be anything else, how it is (read as the look, they had been
  // made duller).
  const colored = COLOR_NOUNS.has(phrase.rest[0] ?? '') ? 1 : phrase.rest[0] === 'the' && COLOR_NOUNS.has(phrase.rest[1] ?? '') ? 2 : 0;
  if (colored > 0 && DESCRIBING_VERBS.has(phrase.rest[colored] ?? '')) {
    const request = asRequest(['the', 'colors', ...phrase.rest.slice(colored)].join(' '));
    return request.fault && !phrase.rest.includes('and') ? { ...phrase, rest: wordsOf(request.text), described: undefined } : undefined;
  }
  const verb = DESCRIBING_VERBS.get(phrase.rest[0] ?? '');
  // "look at the background": the verb before the region is no description of it.
  const said = phrase.clause.indexOf(phrase.rest[0] ?? '');
  if (verb === undefined || !phrase.clause.slice(0, said).some((word) => regionOf(stripPossessive(word)) !== undefined || regionOf(word) !== undefined)) return phrase;
  if (phrase.region === 'background' && ![verb, ...phrase.rest].some((word) => BACKGROUND_FAULT_MARKS.has(word))) return undefined;
  // "the face is dark and brighten it": the description ends at "and"; what follows is read as it was.
  const and = phrase.rest.indexOf('and');
  const [state, more] = and < 0 ? [phrase.rest, []] : [phrase.rest.slice(0, and), phrase.rest.slice(and)];
  const request = asRequest(['it', verb, ...state.slice(1)].join(' '));
  // "her face looks washed out and dark": a second fault after the "and" is described too; so is
  // one said of it again ("her face is too dark and it's blurry": read as a look, it was blurred).
  const afterAnd = more.slice(1);
  const restated = afterAnd[0] === "it's" || afterAnd[0] === 'its' ? 1 : afterAnd[0] === 'it' && DESCRIBING_VERBS.has(afterAnd[1] ?? '') ? 2 : 0;
  const again = ['it', verb, ...afterAnd.slice(restated)].join(' ');
  const second = more.length > 1 ? asRequest(again) : undefined;
  const tail = second && !second.statement && second.text !== again ? ['and', ...wordsOf(second.text)] : more;
  return request.statement ? undefined : { ...phrase, rest: [...wordsOf(request.text), ...tail], described: undefined };
}

/**
 * The edit in the words left once the region's phrase is out, confined to the region; or two
 * edits of it joined by "and" ("make the backdrop white and brighter").
 */
function readEdit(phrase: RegionPhrase, p: Protected): EditOperation[] | undefined {
  // "blur the faces and make it brighter", "crop to the couple and make it warmer": "it" is not
  // several people, nor what a crop kept (the picture is then that crop): the clause is no edit of
  // the region alone, and its pieces are read apart (the second of the picture).
  const and = phrase.rest.indexOf('and');
  if (and > 0 && phrase.rest.slice(and + 1).includes('it')) {
    const several = phrase.clause.some((word) => namesSeveral(word) && regionOf(word) === phrase.region);
    if (several || readOneEdit({ ...phrase, rest: phrase.rest.slice(0, and) }, p)?.some((op) => op.op === 'crop_to_region')) return undefined;
  }
  // "brighten her face and the whole photo": the picture joined to the region as a second object
  // is no edit of the region alone (read so, the picture's part was dropped).
  if (phrase.rest.some((word, i) => word === 'and' && picturePhraseAt(phrase.rest, i + 1))) return undefined;
  const whole = readOneEdit(phrase, p);
  if (whole) return whole;
  for (const [i, word] of phrase.rest.entries()) {
    if (word !== 'and' || i === 0) continue;
    const first = readOneEdit({ ...phrase, rest: phrase.rest.slice(0, i) }, p);
    const second = first && readOneEdit({ ...phrase, rest: phrase.rest.slice(i + 1), described: undefined }, p);
    // "remove the background and make it black and white": nothing is left of the background for
    // a look ("it" is the picture); a fill puts one back ("… and make it white").
    const afterRemoval = first?.some((op) => op.op === 'remove_background') && !second?.every((op) => op.op === 'fill');
    if (first && second && !afterRemoval) return [...first, ...second];
  }
  return undefined;
}

/** Whether the words from `at` to the end or the next "and" name the picture itself ("the whole photo", "this image", "everything"). */
function picturePhraseAt(words: readonly string[], at: number): boolean {
  let end = at;
  while (end < words.length && words[end] !== 'and') end++;
  const named = words.slice(at, end).filter((word) => !PICTURE_PHRASE_LEADS.has(word));
  // "… and the rest of the image", "… and the rest": all that is left, the picture too.
  return named.length > 0 && named.every((word) => WHOLE_IMAGE.has(word) || WHOLE_SPACES.has(word) || word === 'rest') && named.some((word) => !TOTALITY_WORDS.has(word) || named.length === 1);
}
/** Words before a word for the picture in its phrase ("the whole of my photo"). */
const PICTURE_PHRASE_LEADS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'my', 'our', 'your', 'of']);

const EVERYONE: ReadonlySet<string> = new Set(['everyone', 'everybody', 'anyone', 'anybody']);


/** A relation word ("around", "behind", "outside") before the phrase of a face, past its leads. */
function aroundFace(said: readonly string[]): boolean {
  return said.some((word, i) => {
    if (regionOf(stripPossessive(word)) !== 'face') return false;
    let j = i - 1;
    while (j >= 0 && (REGION_LEADS.has(said[j]!) || isPossessive([...said], j)) && !REGION_RELATIONS.has(said[j]!)) j--;
    return j >= 0 && (REGION_RELATIONS.has(said[j]!) || said[j] === 'area');
  });
}

/**
 * "crop out the background", "crop the backdrop off", anywhere in a clause's words (normalised):
 * a crop cuts the canvas, so it may mean the picture cropped close to the subject, or, as people
 * say "cut out", the background taken away round it. Which is not known (blind labels read it
 * both ways), so a reading of it as the cut-out is asked about (rule-planner.ts). A thing cropped
 * out of the background ("crop the dog out of the background") keeps the thing: no match.
 */
export function cropsOutBackground(said: readonly string[]): boolean {
  return cropsOut(said, 'background');
}

/**
 * "crop out the face", "crop her face off": the picture cropped to the face, or the face cut away
 * (as "crop out the background" cuts it away); blind labels read it the second way, an earlier
 * reading the first. Asked (rule-planner.ts).
 */
export function cropsOutFace(said: readonly string[]): boolean {
  return cropsOut(said, 'face');
}

function cropsOut(said: readonly string[], region: RegionName): boolean {
  const words = joinSplitRegionWords([...said]).filter((word) => !isFiller(word) && !OWNERS.has(word));
  return words.some((verb, i) => {
    if (!CROP_VERBS.has(verb) || CROP_VERBS.get(verb) !== undefined) return false;
    const [first, second] = [words[i + 1] ?? '', words[i + 2] ?? ''];
    return (CROPPED_AWAY.has(first) && regionOf(second) === region) || (regionOf(first) === region && CROPPED_AWAY.has(second));
  });
}
/** Whose a part is, between the verb and the part ("crop out her face"). */
const OWNERS: ReadonlySet<string> = new Set(['her', 'his', 'their', 'my', 'our', 'your', 'the']);
const CROPPED_AWAY: ReadonlySet<string> = new Set(['out', 'off']);

/** "put it on …", "place the image on …", "set him against …": the picture or its subject is what is placed. */
const placesPicture = (said: readonly string[]): boolean =>
  said.some((word, i) => PLACING_VERBS.has(word) && (PLACED_THINGS.has(said[i + 1] ?? '') || PICTURE_WORDS.has(said[i + 2] ?? '') || regionOf(said[i + 2] ?? '') === 'subject'));
/** Words of a share of a region ("some of the background", "part of it"). */
const SHARE_WORDS: ReadonlySet<string> = new Set(['some', 'part', 'parts', 'portion', 'portions', 'bit', 'bits', 'half', 'most', 'piece', 'area', 'areas']);
const PLACED_THINGS: ReadonlySet<string> = new Set(['it', 'him', 'her', 'them', 'this', 'me', 'us']);
/** "put it on …", "place image on …", "place the photo on …": the picture itself is what is placed (its noun may be gone from the canonical words: "place on …"). */
export const placesWholePicture = (said: readonly string[]): boolean =>
  said.some((word, i) => {
    if (!PLACING_VERBS.has(word)) return false;
    let at = i + 1;
    while (PICTURE_LEADS.has(said[at] ?? '')) at++;
    const object = said[at] ?? '';
    return WHOLE_PLACED.has(object) || PICTURE_WORDS.has(object) || SET_ON.has(object);
  });
/** What a thing is set on ("place on a yellow background"; "put in a grey one" adds a background). */
const SET_ON: ReadonlySet<string> = new Set(['on', 'onto', 'against', 'upon']);
const WHOLE_PLACED: ReadonlySet<string> = new Set(['it', 'this']);
const PICTURE_LEADS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'my', 'our', 'your', 'whole', 'entire', 'a']);

/** "a yellow and blue background", "red or white": two colours named together, in the clause as said. */
const twoColors = (said: readonly string[]): boolean => {
  return said.some((word, i) => (word === 'and' || word === 'or' || word === '&') && namedColor(said[i - 1] ?? '') !== undefined && namedColor(said[i + 1] ?? '') !== undefined);
};

/** One edit of the region in the words left once its phrase is out. */
function readOneEdit({ region, rest, clause, described }: RegionPhrase, p: Protected): EditOperation[] | undefined {
  // "cut out the background" takes it away; "blur out the background" is a blur; "the background
  // portion" is the background.
  // "blur the faces for privacy": the reason, not another edit.
  // "add a blurry cat", "put a grey dog next to her": a subject named after "a" as what is added is
  // a new thing drawn, not the look of the one there.
  if (region !== 'background' && addsNewThing(clause)) return undefined;
  // "fade out the background", "fade it to white": a fade that goes somewhere is asked (lexicon UNSURE_VERBS).
  if (rest.some((word) => UNSURE_VERBS.has(word)) && rest.some((word) => FADING_TO.has(word))) return undefined;
  const said = lookPhrases(rest).filter((word, i, rest) => (word !== 'out' || rest.some((w) => OUT_VERBS.has(w))) && !(region === 'background' && REGION_SPACES.has(word)) && !PRIVACY_WORDS.has(word) && !(word === 'for' && PRIVACY_WORDS.has(rest[i + 1] ?? '')));
  // "blur everything and the man": the whole picture named beside a part is no edit of that part.
  if (region !== 'background' && said.some((word) => WHOLE_SPACES.has(word))) return undefined;
  // "very dark blue": the intensifier of a shade belongs to the colour's phrase.
  const colored = said.filter((word, i) => !(SHADE_INTENSIFIERS.has(word) && SHADE_WORDS.has(said[i + 1] ?? '') && namedColor(said[i + 2] ?? '') !== undefined));
  const words = region === 'background' ? formerColorOut(colored).map((word) => COLOR_VERBS.get(word) ?? BACKGROUND_SMOOTHING.get(word) ?? word) : colored;
  // "change the backdrop from navy", "it should be turned from white": the colour it has, with none
  // to go to, is no fill (nor a cast).
  if (FORMER_COLOR_LEADS.some((lead) => words.some((_, i) => lead.every((word, k) => words[i + k] === word) && isColorWord(words[i + lead.length] ?? '')))) return undefined;
  // "make his skin look smoother": "look" as the verb of a face's smoothing is no effect's name.
  const smoothing = region === 'face' && words.some((word) => SMOOTH_WORDS.has(word));
  // "a blue filter on the background": a colour names the filter's kind, a tint.
  const tinted = targetColor(words) !== undefined && readLooks(words, p)?.every((op) => op.op === 'tint') === true;
  if (words.some((word) => EFFECT_WORDS.has(word)) && !smoothing && !tinted && !readLooks(words.filter((word) => !EFFECT_WORDS.has(word)), p)?.length) return undefined;
  // "a transparent background": the background taken away, not filled with nothing.
  const named = region === 'background' ? (targetColor(words) ?? described) : undefined;
  // "isolate the background", "extract the backdrop": what is isolated is kept, so the subject
  // would go (a model's work), never the background. Isolated for an edit that refers back to it
  // ("isolate the background and make it blurry"), it is singled out, as "select" does.
  if (region === 'background' && words.some((word) => CUT_OUT_VERBS.has(word))) {
    const referredBack = words.some((word, i) => word === 'and' && words.slice(i + 1).includes('it'));
    const singledOut = referredBack ? readOneEdit({ region, rest: rest.filter((word) => !CUT_OUT_VERBS.has(word)), clause: clause.filter((word) => !CUT_OUT_VERBS.has(word)), described }, p) : undefined;
    return singledOut?.every((op) => op.op !== 'remove_background') ? singledOut : undefined;
  }
  // "crop out her face": a crop keeps a face (below), whatever its particle.
  const faceCrop = region === 'face' && asksCrop(clause) && words.every((word) => !REMOVAL_WORDS.has(word) || word === 'out');
  const removal = !faceCrop && (words.some((word) => REMOVAL_WORDS.has(word)) || named?.alpha === 0);
  // "remove the black background": the colour it has; "make the brown background": the one it should have.
  const color = region === 'background' && named?.alpha !== 0 ? (targetColor(words) ?? (removal ? undefined : described)) : undefined;
  // "remove the black from the background", "take the blue out of the backdrop": the colour is
  // what is taken away, never what fills it (nor is the background taken away): not read.
  if (removesColor(rest)) return undefined;
  // "add blue to the background", "a bit more red in her face": some of a colour there is a cast
  // (a tint), not a fill; a colour without a hue ("add white to it") could be either: refused.
  const cast = targetColor(words);
  // "a blue filter on the background" casts its colour too.
  // "… and add a grey one": a colour after "a" is a thing of that colour (the region's new fill), not some of it.
  const articled = words.some((word, i) => (word === 'a' || word === 'an') && (isColorWord(words[i + 1] ?? '') || (SHADE_WORDS.has(words[i + 1] ?? '') && isColorWord(words[i + 2] ?? ''))));
  // "cover the background in snow", "turn the backdrop into chocolate", "add chocolate over the
  // backdrop": a thing drawn there, not its colour (nor a cast of it).
  if ((color || cast) && words.some((word, i) => THING_COLOR_NAMES.has(word) && THING_LEADS.has(words[i - (words[i - 1] === 'a' || words[i - 1] === 'an' ? 2 : 1)] ?? '') && !COLOR_HEAD_NOUNS.has(words[i + 1] ?? '') && !REDUCED_QUALITY_HEADS.has(words[i + 1] ?? ''))) return undefined;
  // "turn up the red in the background": a colour turned up or down is more or less of it, never
  // the region filled or cast with it.
  const amountTurned = words.some((word) => TURN_VERBS.has(word)) && words.some((word) => word === 'up' || word === 'down');
  const casting = !amountTurned && cast !== undefined && words.some((word) => EFFECT_WORDS.has(word) || (REGION_CAST_WORDS.has(word) && !articled));
  if (casting && words.every((word) => REGION_CAST_WORDS.has(word) || FILL_VERBS.has(word) || isFiller(word) || isColorWord(word) || word === 'in' || word === 'give')) {
    return !removal && hasHue(cast) ? [{ op: 'tint', region, color: cast }] : undefined;
  }
  // "make the background white", "remove the background and make it grey", "add a white
  // background": a plain colour fills it.
  // "place the image on a yellow background": the picture placed is what is in front, as "it" is.
  const placed = words.some((word) => PLACING_VERBS.has(word));
  // "place it on a yellow and blue background": two colours are no one plain fill to place it on
  // (a pattern or a gradient); made so, the fill's own check asks which.
  if (placed && twoColors(clause)) return undefined;
  // "put it on a dark background": the picture set on a new background with no colour for it is
  // a new background (a model's), not its own darkened.
  if (placed && region === 'background' && (targetColor(words) ?? described) === undefined && placesPicture(clause)) return undefined;
  // "place the image on a yellow background", "put it on a white background": the picture as a
  // whole set on a colour may be its subject cut out onto it or the whole picture on a larger
  // canvas of it (a padding): asked. Someone placed ("put him on a white background") is the subject.
  if (placed && region === 'background' && placesWholePicture(clause)) return undefined;
  if (color && !casting && !amountTurned && words.every((word) => FILL_VERBS.has(word) || REMOVAL_WORDS.has(word) || REGION_VERBS.has(word) || isFiller(word) || isColorWord(word) || PLACING_VERBS.has(word) || PLACED_ON.has(word) || (placed && PICTURE_NOUNS.has(word)) || word === 'add' || word === 'give')) {
    return [{ op: 'fill', region, color }];
  }
  // "smooth out the blemishes on her face": flaws of the skin smoothed are a smoothing of the face.
  // Flaws taken away ("remove the blemishes from her face") are not: a smoothed face still has
  // its spots, only softer, and taking them away draws new skin (a model).
  const flaws = region === 'face' && words.some((word) => SKIN_FLAWS.has(word));
  const smoothed = words.some((word) => SMOOTH_WORDS.has(word)) && !words.some((word) => ADDING_WORDS.has(word) || REMOVAL_VERBS.has(word) || (REMOVAL_WORDS.has(word) && word !== 'out'));
  if (flaws && smoothed && words.every((word) => SKIN_FLAWS.has(word) || SMOOTH_WORDS.has(word) || REMOVED_LEADS.has(word) || word === 'out' || isFiller(word))) {
    return [{ op: 'smooth', region, strength: STEPS.smooth!.steps.normal }];
  }
  // "crop out the excess background", "crop to remove the extra backdrop": what is taken away is
  // more background than wanted, so the picture is cropped to the subject.
  // A verb that takes away must say so ("add extra background" asks for more of it).
  const takesAway = words.some((word) => CROP_VERBS.has(word) || word === 'trim' || (REMOVAL_WORDS.has(word) && word !== 'out')) && !words.some((word) => ADDING_WORDS.has(word));
  const surplus = region === 'background' && takesAway && words.some((word) => SURPLUS_WORDS.has(word));
  if (surplus && words.every((word) => SURPLUS_WORDS.has(word) || CROP_WORDS.has(word) || REMOVAL_WORDS.has(word) || REMOVAL_VERBS.has(word) || word === 'trim' || word === 'away' || isFiller(word))) {
    return [{ op: 'crop_to_region', region: 'subject', margin: CROP_MARGIN }];
  }
  // "edit out the background", "crop the backdrop out": a verb of taking away with its "out".
  const outVerb = (word: string) => OUT_VERBS.has(word) && words.includes('out');
  // "remove the background add in a pink backdrop": a background added with its colour after the
  // removal is what it becomes (the removal alone would drop the colour asked for); every word of
  // the clause must say so ("remove the jungle background add …" names one it does not know).
  const removedAndAdded = words.every((word) => REMOVAL_WORDS.has(word) || REMOVAL_VERBS.has(word) || REGION_VERBS.has(word) || ADDING_WORDS.has(word) || outVerb(word) || isFiller(word));
  if (removal && region === 'background' && described && described.alpha > 0 && words.some((word) => ADDING_WORDS.has(word)) && removedAndAdded) {
    return [{ op: 'fill', region, color: described }];
  }
  // "crop out some of the background", "remove part of the background": a share of it taken away
  // is no cut-out of all of it (nor says which part).
  if (removal && clause.some((word, i) => SHARE_WORDS.has(word) && clause.slice(i + 1).some((after) => regionOf(after) === region))) return undefined;
  if (removal) {
    // "remove the backdrop completely": how much of it goes is all of it.
    const only = words.every((word) => REMOVAL_WORDS.has(word) || REGION_VERBS.has(word) || isFiller(word) || REMOVAL_VERBS.has(word) || outVerb(word) || SOLID.has(word) || TOTALLY.has(word));
    // "remove the background"; "cut out the girl", "isolate the dog": the subject kept, the background gone.
    // "separate the girl from her friends": parted from others, not from the background.
    const fromOthers = clause.slice(clause.indexOf('from') + 1).some((word) => clause.includes('from') && regionOf(stripPossessive(word)) !== undefined);
    // "cut him out of the photo": taken out of the picture (a model's work), not cut out of its background.
    // (The picture's own words are out of the clause by now: "out of" with nothing of a region after it.)
    const outOfPicture = clause.some((word, i) => word === 'out' && clause[i + 1] === 'of' && clause.slice(i + 2).every((w) => PICTURE_WORDS.has(w) || PICTURE_STATE_LEADS.has(w) || isFiller(w)));
    const cutOut = region === 'subject' && !fromOthers && !outOfPicture && ((words.includes('cut') && words.includes('out')) || words.some((word) => CUT_OUT_VERBS.has(word)));
    return only && (region === 'background' || cutOut) ? [{ op: 'remove_background', region: 'background' }] : undefined;
  }
  // "crop to the dog", "zoom in on her face".
  // "crop the women from the picture" takes them out: no crop to them. A face is no thing a crop
  // takes away: "crop out her face" keeps it.
  // Not "zoom out on her face" (the other way), "crop his face out of the photo" (taken out of it)
  // nor "crop out the faces for privacy" (hidden, not kept).
  const awayFrom = clause.some((word, i) => word === 'out' && (clause[i - 1] === 'zoom' || clause[i + 1] === 'of')) || clause.some((word) => PRIVACY_WORDS.has(word));
  const cropTo = !awayFrom && (region === 'face' || (!rest.includes('from') && !rest.includes('out')));
  const keptOut = (word: string) => region === 'face' && (word === 'out' || word === 'from');
  // "zoom in a little on her face", "crop it slightly to center the baby": a gentler crop, with a wider margin.
  const gently = words.includes(LEVEL_WORDS.slight);
  // "crop to each person", "crop to every face": a crop per one of them is several pictures, not
  // the one crop around all of them that this is.
  const eachOne = clause.some((word) => EACH_WORDS.has(word));
  if ((region === 'subject' || region === 'face') && cropTo && !eachOne && asksCrop(clause) && words.every((word) => CROP_WORDS.has(word) || isFiller(word) || keptOut(word) || word === LEVEL_WORDS.slight)) {
    return [{ op: 'crop_to_region', region, margin: gently ? GENTLE_CROP_MARGIN : CROP_MARGIN }];
  }
  // "censor the faces", "anonymize the people": their faces pixelated.
  const hiding = region === 'face' ? HIDING_VERBS : region === 'subject' ? ANONYMIZING_VERBS : new Set<string>();
  if (words.some((word) => hiding.has(word)) && words.every((word) => hiding.has(word) || isFiller(word))) {
    return readLooks(['pixelate'], p)?.map((op) => ({ ...op, region: 'face' }) as EditOperation);
  }
  // "smooth her skin", "make his skin smooth".
  // "smooth her skin slightly", "… but not too much": the smoothing's own degree, never a blur.
  const level = words.includes(LEVEL_WORDS.slight) ? 'slight' : words.includes(LEVEL_WORDS.strong) ? 'strong' : 'normal';
  const leveled = (word: string) => word === LEVEL_WORDS.slight || word === LEVEL_WORDS.strong;
  if (region === 'face' && words.some((word) => SMOOTH_WORDS.has(word)) && words.every((word) => SMOOTH_WORDS.has(word) || SMOOTH_COMPANIONS.has(word) || leveled(word) || isFiller(word))) {
    return [{ op: 'smooth', region, strength: STEPS.smooth!.steps[level] }];
  }
  // "make him older", "make the dog look older": an age changed is drawn anew, not an old look.
  if (region !== 'background' && words.some((word) => AGE_WORDS.has(word))) return undefined;
  const read = readLooks(words, p);
  // "make her skin smooth and bright": a face's smoothing beside another edit is read part by
  // part (readEdit), never as a blur ("soften the lighting on his face" is a look of its own).
  if (region === 'face' && words.some((word) => SMOOTH_WORDS.has(word)) && read?.some((op) => op.op === 'blur') && read.length > 1) return undefined;
  if (!read || read.length === 0 || !read.every((op) => REGION_OPERATIONS.get(op.op)?.includes(region))) return undefined;
  return read.map((op) => ({ ...op, region }) as EditOperation);
}

/** Whether a subject or a face is named after "a" or "an" as the object of a verb that adds or places ("add a bright cat"). */
export function addsNewThing(words: string[]): boolean {
  return words.some((_, i) => {
    const region = regionWord(words, i);
    if (region === undefined || region === 'background') return false;
    let j = i - 1;
    while (j >= 0 && !DETERMINERS.has(words[j]!) && !INDEFINITE.has(words[j]!) && !THING_ADDING_VERBS.has(words[j]!)) j--;
    return INDEFINITE.has(words[j] ?? '') && words.slice(0, j).some((word) => THING_ADDING_VERBS.has(word));
  });
}
const INDEFINITE: ReadonlySet<string> = new Set(['a', 'an']);
/** Verbs whose object is a thing put into the picture ("give" is not: "give the bride a smooth complexion" has her face). */
const THING_ADDING_VERBS: ReadonlySet<string> = new Set(['add', 'insert', 'put', 'place', 'paste', 'draw', 'include']);

/** "make the background out of focus": a look said in a phrase whose words say other things alone ("out" takes away), as its one word. */
function lookPhrases(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    // "the background is out of focus" says how it is, which may be the fault: not the look asked for.
    const phrase = AS_IT_IS.has(words[i - 1] ?? '') ? undefined : LOOK_PHRASES.find(([said]) => said.every((word, k) => words[i + k] === word));
    if (phrase) {
      out.push(phrase[1]);
      i += phrase[0].length - 1;
    } else out.push(words[i]!);
  }
  return out;
}

/** Whether a colour is the object of a removal ("remove the red", "get rid of the grey", "take the blue out"). */
function removesColor(words: string[]): boolean {
  return words.some((word, i) => {
    let j = i + 1;
    while (REMOVED_LEADS.has(words[j] ?? '')) j++;
    const afterRemoval = REMOVAL_WORDS.has(word) && !FILL_VERBS.has(word) && isColorWord(words[j] ?? '');
    // "take the blue out", "get the white off": the verb, the colour, then the particle.
    const beforeParticle = REMOVAL_VERBS.has(word) && !FILL_VERBS.has(word) && isColorWord(words[j] ?? '') && (words[j + 1] === 'out' || words[j + 1] === 'off');
    return afterRemoval || beforeParticle;
  });
}

/**
 * "change the background from black to white", "make it white instead of black": the colour it
 * has now taken out with its lead, when another colour is named as the one it should have.
 */
/** The most words a background's former look takes before "to" ("from a dark grey gradient to …"). */
const MAX_FORMER_WORDS = 5;
function formerColorOut(words: string[]): string[] {
  for (const lead of FORMER_COLOR_LEADS) {
    const at = words.findIndex((_, i) => lead.every((word, k) => words[i + k] === word));
    if (at < 0) continue;
    let end = at + lead.length;
    while (end < words.length && isColorWord(words[end]!)) end++;
    // "from a grey gradient to complete black": what it is now, a thing said with its article,
    // before the plain colour it is to be ("from sepia to grey" may be a look: not read).
    const to = lead[0] === 'from' && (words[end] === 'a' || words[end] === 'an') ? words.findIndex((word, i) => i > end && FROM_TO.has(word)) : -1;
    if (to > 0 && to - end <= MAX_FORMER_WORDS && targetColor(words.slice(to + 1)) !== undefined && words.slice(to + 1).every((word) => isColorWord(word) || SOLID.has(word) || REGION_LEADS.has(word))) {
      return [...words.slice(0, at), ...words.slice(to)];
    }
    const kept = [...words.slice(0, at), ...words.slice(end)];
    const changedTo = lead[0] !== 'from' || FROM_TO.has(words[end] ?? '');
    if (changedTo && targetColor(words.slice(at + lead.length, end)) !== undefined && targetColor(kept) !== undefined) return kept;
  }
  return words;
}

/** Whether the words ask for a crop: a crop verb, with its particle when it needs one ("focus in on"). */
const asksCrop = (words: string[]): boolean => words.some((word, i) => CROP_VERBS.has(word) && [undefined, words[i + 1]].includes(CROP_VERBS.get(word)));

/**
 * "in the back", "at the back of the photo" (the picture's words are out by now, leaving "of the"):
 * a place named after a place's preposition, with nothing of its own after it.
 */
function placeRegion(words: string[], i: number): PlaceRegion | undefined {
  const region = PLACE_REGIONS.get(words[i]!);
  if (region === undefined || words[i - 1] !== 'the' || !PLACE_PREPOSITIONS.has(words[i - 2] ?? '')) return undefined;
  const after = words.slice(i + 1);
  return after.length === 0 || (after[0] === 'of' && after.length <= 2 && after.every((word) => word === 'of' || word === 'the' || word === 'this')) ? region : undefined;
}

/** "the back ground", "the fore ground": a region word written in two; "in the back": the background. */
function joinSplitRegionWords(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const place = placeRegion(words, i);
    if (place !== undefined) {
      out.push(regionWords(place)[0]!);
      continue;
    }
    const joined = `${words[i]}${words[i + 1] ?? ''}`;
    if (i + 1 < words.length && regionOf(words[i]!) === undefined && regionOf(words[i + 1]!) === undefined && regionOf(joined) !== undefined) {
      out.push(joined);
      i++;
    } else out.push(words[i]!);
  }
  return out;
}

/** A crop to a region keeps this share of its box on each side. */
const CROP_MARGIN = 0.1;
/** A crop to a region said to be slight keeps this share instead. */
const GENTLE_CROP_MARGIN = 0.25;

/** The edit the words read as, whole or as two parts joined by "and" ("blur and make it black and white"). */
function readLooks(words: string[], p: Protected): EditOperation[] | undefined {
  // "make the skin colour brighter", "brighten the background colour": a part's one colour made
  // brighter may be lighter or more vivid (the picture's is its vividness, adjustment-rules.ts): asked.
  if (words.includes('color') && !words.includes('colors') && words.some((word) => VIVID_WHEN_COLORS.has(word))) return undefined;
  const whole = readForm(words.join(' '), p);
  if (whole) return whole;
  for (const [i, word] of words.entries()) {
    if (word !== 'and' || i === 0) continue;
    const first = readForm(words.slice(0, i).join(' '), p);
    const second = first && readForm(words.slice(i + 1).join(' '), p);
    if (first && second && first.length > 0 && second.length > 0) return [...first, ...second];
  }
  return undefined;
}

/** Whether a colour has a hue to cast (white, black and greys have none). */
const hasHue = (color: Color): boolean => Math.max(color.r, color.g, color.b) - Math.min(color.r, color.g, color.b) > 24;

/** A word of a colour's name ("light", "blue"). */
/** A colour by name or by hex ("#ff0000"), as the fill and the tint of a region take it alike. */
const colorOfWord = (word: string): Color | undefined => namedColor(word) ?? (word.startsWith('#') ? fromHex(word) : undefined);
const isColorWord = (word: string): boolean => colorOfWord(word) !== undefined || SHADE_WORDS.has(word);
/** Words of a plain colour's phrase ("a solid white background"). */
const SOLID: ReadonlySet<string> = new Set(['solid', 'plain', 'pure', 'complete', 'completely', 'total', 'all', 'whole', 'entire']);
const ADDING_WORDS: ReadonlySet<string> = new Set(['add', 'more', 'give', 'put', 'insert', 'extend', 'expand']);
const TOTALLY: ReadonlySet<string> = new Set(['entirely', 'fully', 'totally', 'altogether']);

/** The one plain colour the words name (a shade with it: "light blue"), else undefined (none, or two: "black and white"). */
function targetColor(words: string[]): Color | undefined {
  const colors: Color[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length && SHADE_WORDS.has(words[i]!) ? namedColor(`${words[i]}${words[i + 1]}`) : undefined;
    if (pair) {
      colors.push(pair);
      i++;
      continue;
    }
    const one = SHADE_WORDS.has(words[i]!) ? undefined : colorOfWord(words[i]!);
    if (one && one.alpha > 0) colors.push(one);
  }
  return colors.length === 1 ? colors[0] : undefined;
}

/**
 * "brighten the girl, brighten the background": one edit said of the subject and of the
 * background alike is that edit of the whole picture, once.
 */
export function wholeFromParts(operations: EditOperation[]): EditOperation[] {
  const out: EditOperation[] = [];
  for (const op of operations) {
    const last = out.at(-1);
    const regions = new Set([regionOfStep(last ?? { op: '' }), regionOfStep(op)]);
    if (last && regions.has('background') && regions.has('subject') && sameBesidesRegion(last, op)) {
      const { region: _, ...whole } = op as EditOperation & { region?: string };
      out[out.length - 1] = whole as EditOperation;
      continue;
    }
    out.push(op);
  }
  return out;
}

/**
 * "remove the background, put a black background": the background taken away and then filled is
 * the fill alone (a fill keeps the alpha it finds, so after the removal it would not show).
 */
export function fillsAfterRemoval(operations: EditOperation[]): EditOperation[] {
  return operations.filter((op, i) => !(op.op === 'remove_background' && operations.slice(i + 1).some((later) => later.op === 'fill' && later.region === 'background')));
}

const sameBesidesRegion = (a: EditOperation, b: EditOperation): boolean => {
  const strip = (op: EditOperation) => JSON.stringify({ ...op, region: undefined });
  return strip(a) === strip(b);
};

/**
 * A step on a region asked right after a change of the picture's shape ("zoom out and make the
 * background white", "rotate it and blur the background") is done before it, which gives the same
 * picture (the region moves with the pixels) with the source's mask, found at full size and
 * cached by the source.
 */
export function regionStepsFirst(operations: EditOperation[]): EditOperation[] {
  const out = [...operations];
  // "circle crop her face", "make it a circle and crop to her face": the shape cut is of the crop,
  // whatever the order said (cut first, the crop was a rectangle out of the circle's square).
  for (let i = 1; i < out.length; i++) {
    if (out[i]!.op !== 'crop_to_region') continue;
    const shape = out.slice(0, i).findIndex((op) => SHAPE_CUTS.has(op.op));
    if (shape >= 0) out.splice(i, 0, ...out.splice(shape, 1));
  }
  for (let i = 1; i < out.length; i++) {
    // A crop to a region changes the size: before a resize it would give another picture. It and
    // a step that cannot move find their masks in the picture as it is then (render/region.ts).
    if (!regionOfStep(out[i]!) || out[i]!.op === 'crop_to_region') continue;
    let j = i;
    while (j > 0 && GEOMETRY.has(out[j - 1]!.op)) j--;
    if (j < i) out.splice(j, 0, ...out.splice(i, 1));
  }
  return out;
}

/** Cuts of the picture's outline to a shape, made last of the crops. */
const SHAPE_CUTS: ReadonlySet<EditOperation['op']> = new Set<EditOperation['op']>(['circle', 'round_corners']);
/** Changes of the picture's size, shape or orientation, across which a region step moves. */
const GEOMETRY: ReadonlySet<string> = new Set(OPERATIONS.filter((entry) => entry.group === 'geometry').map((entry) => entry.name));
