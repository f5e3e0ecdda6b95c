/**
 * The planner's word table: what a word IS, read like a dictionary. Code elsewhere asks the
 * table (`regionOf`, `typoTargets`) and never spells a word of its own; a new way of asking is
 * usually a new line here.
 *
 * Roles kept here so far:
 * - `region`: a part of the picture an edit can be said of. The three a classic editor can
 *   locate (the background, the subject in front of it, the faces) name their region; the rest
 *   (sky, hair, clothes…) name none we can do, so an edit of them needs a model.
 * - `typo target`: the words a misspelling is corrected to, each with its part of speech, so a
 *   correction is taken only where that part of speech can stand (after "add a", a noun).
 */

/** The regions an edit may be said of; `none` is a part of the picture no region model finds. */
export type Region = 'background' | 'subject' | 'face' | 'none';

const regions = (region: Region, words: string): Array<[string, Region]> => words.split(/\s+/).filter(Boolean).map((word) => [word, region]);

/**
 * Region words. Subject words are who a photo is usually of (a person, people, a pet, "the
 * subject"); a part of them or a named object is no region we can locate.
 */
const REGIONS: ReadonlyMap<string, Region> = new Map([
  ...regions('background', 'background backgrounds backdrop backround bg'),
  ...regions(
    'subject',
    `subject foreground girl boy man woman child kid baby person people lady guy couple family bride groom model dog cat puppy kitten
     girls boys men women children kids babies persons ladies guys dogs cats her him them`,
  ),
  ...regions('face', 'face faces skin complexion'),
  ...regions(
    'none',
    `sky skies cloud clouds sun sea ocean water lake river beach sand grass tree trees leaves flowers mountain mountains hill road street
     building buildings house wall walls floor window car cars wheel wheels hair eyes eye teeth tooth lips lip mouth nose ears hand hands
     arm arms leg legs body head shirt dress clothes jacket hat glasses`,
  ),
]);

/** The region a word names, if it is a region word. */
export const regionOf = (word: string): Region | undefined => REGIONS.get(word);

/** The words that name one region. */
export const regionWords = (region: Region): string[] => [...REGIONS].filter(([, named]) => named === region).map(([word]) => word);

/** Region words that are also possessives ("her face"): then the word after them is the region. */
export const POSSESSIVE_PRONOUNS: ReadonlySet<string> = new Set(['her']);

/** Parts of speech a misspelling may be corrected to. */
export type PartOfSpeech = 'noun' | 'verb' | 'adjective' | 'adverb';

const targets = (pos: PartOfSpeech, words: string): Array<[string, PartOfSpeech]> => words.split(/\s+/).filter(Boolean).map((word) => [word, pos]);

/**
 * The words a typo is corrected to (colours and fillers never are). A word of two parts of
 * speech is listed by the one a correction may give it.
 */
const TYPO_TARGETS: ReadonlyMap<string, PartOfSpeech> = new Map([
  ...targets(
    'noun',
    `brightness exposure contrast saturation vibrance sharpness rotation temperature vignette border image picture photo colors color
     clarity intensity background watermark caption thumbnail lines sepia grayscale`,
  ),
  ...targets('verb', 'brighten darken lighten desaturate sharpen blur rotate increase decrease reduce enlarge resize invert mirror flip crop straighten pixelate emboss denoise compress sketch zoom'),
  ...targets(
    'adjective',
    `brighter bright darker lighter saturated vibrant vivid sharper blurry bigger smaller larger black white warmer cooler horizontal
     vertical transparent yellow orange purple green brown violet magenta turquoise`,
  ),
  ...targets('adverb', 'horizontally vertically'),
]);

/** Every word a typo may be corrected to, in the table's order. */
export const TYPO_VOCABULARY: readonly string[] = [...TYPO_TARGETS.keys()];

/** The part of speech of a typo target. */
export const partOfSpeech = (word: string): PartOfSpeech | undefined => TYPO_TARGETS.get(word);

/**
 * Words that lead to a region word and belong to its phrase ("of the little", "her", "on his"):
 * taken with it when the rest of the clause is read as the edit of the region.
 */
export const REGION_LEADS: ReadonlySet<string> = new Set(
  'the her his their its my your our this that these those of on in to at for around behind little young small whole entire all'.split(' '),
);

/**
 * Edits that exist only for a region, with the regions they apply to: a crop to the subject or
 * the faces, the background removed (made transparent). A plain colour named is the background
 * filled with it.
 */
const ALL_REGIONS: ReadonlySet<Region> = new Set(['background', 'subject', 'face']);
export const BACKGROUND_ONLY: ReadonlySet<Region> = new Set(['background']);
export const REGION_ACTIONS: ReadonlyMap<string, ReadonlySet<Region>> = new Map([
  ...['crop', 'zoom'].map((word): [string, ReadonlySet<Region>] => [word, ALL_REGIONS]),
  ...['remove', 'delete', 'erase', 'transparent'].map((word): [string, ReadonlySet<Region>] => [word, BACKGROUND_ONLY]),
]);

/** Words that carry a region-only edit's verb without adding to it ("change the background to white", "cut out the background"). */
export const REGION_VERBS: ReadonlySet<string> = new Set('make turn change paint fill into with solid plain be cut out in'.split(' '));

/** Words that negate the clause they stand in ("don't rotate it"): what not to do is no edit. */
export const NEGATORS: ReadonlySet<string> = new Set("not: not don't dont never doesn't doesnt shouldn't shouldnt mustn't won't wont".split(' '));

/**
 * "colour the photo", "color it in": the verb with an object and no colour named puts colour
 * into the picture (a model's work), whatever the picture is now ("colour the black and white
 * photo" is not a request for black and white).
 */
export const COLORING_VERBS: ReadonlySet<string> = new Set(['color', 'colorize', 'recolor']);
export const OBJECT_WORDS: ReadonlySet<string> = new Set(['the', 'it', 'this', 'that', 'her', 'him', 'his', 'them', 'their', 'my', 'in']);
