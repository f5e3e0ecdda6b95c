/**
 * The planner's word table: what a word IS, read like a dictionary. Code elsewhere asks the
 * table (`regionOf`, `typoTarget`) and never spells a word of its own; a new way of asking is
 * usually a new line here.
 *
 * Roles kept here so far:
 * - `region`: a part of the picture an edit can be said of. The three a classic editor can
 *   locate (the background, the subject in front of it, the faces) name their region; the rest
 *   (sky, hair, clothes…) name none we can do, so an edit of them needs a model.
 * - `operation noun`: a noun that names an edit or what it adds ("a vignette", "a caption").
 * - adjustment words: an attribute (noun, or its opposite), a word with its own direction
 *   ("brighter"), a direction ("increase", "less"), a word that carries nothing there, a
 *   colour's share, one step ("a notch"); read by adjustment-rules.ts.
 */

import { OPERATIONS } from '../operations/registry.ts';
import { isLetters, wordsOf } from './phrases.ts';
import { namedColor } from './colors.ts';
import { SYNONYM_VERBS, SYNONYMS } from './synonyms.ts';

/**
 * Whole-picture words, dropped as naming what every edit here is of ("increase the image
 * brightness" is "increase the brightness"). All are fillers already, so nothing is lost.
 */
/** Words that say all of something ("the whole image"): left over in a region's clause, they say the clause is about the whole picture too. */
/** The person asked, addressed ("dude sharpen it", "sharpen it thanks man"): never someone in the picture. */
export const ADDRESSED: readonly string[] = ['dude', 'bro', 'bruh', 'guys', 'mate', 'buddy', 'fam', 'pal', 'dawg'];
/** Words that address the person asked only before a request ("man its blurry"), elsewhere a person in it ("brighten the man"). */
export const ADDRESSED_BEFORE_REQUEST: readonly string[] = ['man', 'girl', 'sis', 'friend'];

export const TOTALITY_WORDS: ReadonlySet<string> = new Set(['entire', 'whole', 'overall', 'entirely', 'entirety']);
/** Words that say where a region is ("the background of the photo", "the faces in the picture"). */
export const PLACE_LEADS: ReadonlySet<string> = new Set(['of', 'in', 'on']);
/** Nouns of the picture itself ("the shot", "invert the video": a still of one, "lighten the scan"). */
export const PICTURE_NOUNS: ReadonlySet<string> = new Set('image photo picture pic pix photograph shot img video scan'.split(' '));
export const WHOLE_IMAGE: ReadonlySet<string> = new Set([
  ...PICTURE_NOUNS,
  'images', 'photos', 'pictures', 'pics', 'photographs',
  // Other names of a photo as a whole ("sharpen my selfie").
  'snapshot', 'selfie', 'screenshot',
  ...TOTALITY_WORDS,
]);

/**
 * Pronouns that name all of the picture ("make everything larger", "give everything a border"):
 * dropped like the picture's words, but only in a clause that names no region, no relation and no
 * exception ("everything around her", "everything but the dog", "everything else" are regions).
 */
export const PICTURE_PRONOUNS: ReadonlySet<string> = new Set(['everything']);
/** Pronouns before "a … one" that name what "one" stands for: the picture ("make it a brighter one"). */
export const ONE_ANTECEDENTS: ReadonlySet<string> = new Set(['it', 'this', 'that', 'them']);
/** Words after such a pronoun that make it a part ("everything on the left", "everything in the back"). */
export const PART_AFTER_PRONOUN: ReadonlySet<string> = new Set(['else', 'on', 'in', 'at', 'of', 'that', 'which', 'except', 'but', 'apart', 'besides', 'around', 'behind', 'outside']);

/** The regions an edit may be said of; `none` is a part of the picture no region model finds. */
export type Region = 'background' | 'subject' | 'face' | 'none';

const regions = (region: Region, words: string): Array<[string, Region]> => wordsOf(words).map((word) => [word, region]);

/**
 * Region words. Subject words are who a photo is usually of (a person, people, a pet, "the
 * subject"); a part of them or a named object is no region we can locate.
 */
const REGIONS: ReadonlyMap<string, Region> = new Map([
  ...regions('background', 'background backgrounds backdrop backdrops backround bg surroundings'),
  // The background as people shorten it in notes ("darken the bkg", "blur the bkgd").
  ...regions('background', 'bkg bkgd bgd bkgrd bkgnd'),
  ...regions(
    'subject',
    `subject subjects foreground girl boy man woman child kid baby person people lady guy couple family bride groom model dog cat puppy kitten
     girls boys men women children kids babies persons ladies guys dogs cats her him them`,
  ),
  // The person asking is in the photo: "brighten me", "make us sharper", "blur me out" (SPEAKER_PRONOUNS).
  ...regions('subject', 'me us myself ourselves'),
  // More names of the people a photo is of ("the figure", "this gentleman", "the model", "everyone").
  ...regions(
    'subject',
    `figure figures gentleman gentlemen model toddler toddlers infant teen teenager teenagers mom dad mother father son daughter
     husband wife boyfriend girlfriend brother sister grandma grandpa friend friends everyone everybody puppies kittens`,
  ),
  // Animals a photo is of, as the general model finds them (the people model finds none: a clear 422).
  ...regions('subject', 'animal animals pet pets bird birds horse horses spider insect butterfly'),
  ...regions(
    'subject',
    `deer lion lions tiger tigers bear bears fox wolf rabbit rabbits bunny owl eagle duck ducks cow cows sheep goat elephant giraffe
     monkey squirrel parrot lizard turtle`,
  ),
  // People named by what they do ("the player", "the rider"), and more animals a photo is of.
  ...regions(
    'subject',
    `player players rider riders athlete athletes runner runners dancer dancers skier skiers surfer surfers cyclist cyclists
     biker bikers skater skaters boxer boxers soldier soldiers student students gorilla gorillas panda pandas zebra zebras chimp chimpanzee`,
  ),
  // People named by their role, their family tie or their age ("the singer", "the grandmother", "the newborn"), and more animals.
  ...regions(
    'subject',
    `dude dudes newlyweds teens singer singers musician musicians guitarist guitarists graduate graduates officer officers cop cops
     policeman policemen doctor doctors nurse nurses chef chefs cowboy cowboys actor actors actress actresses celebrity king queen prince
     princess grandmother grandfather granddaughter grandson grandchild grandchildren grandkids sibling siblings twins fiance fiancee
     groomsmen bridesmaid bridesmaids skateboarder skateboarders newborn newborns`,
  ),
  ...regions('subject', 'pup pups kitty doggy hamster snake pig pony lamb'),
  ...regions('face', 'face faces skin complexion'),
  // Parts of a person no model outlines on its own ("her fingers", "the forehead"): a face's mask is all of the face.
  ...regions('none', 'finger fingers nails toes feet foot forehead cheek cheeks chin eyebrow eyebrows eyelashes shoulder shoulders'),
  ...regions(
    'none',
    `sky skies cloud clouds sun sea ocean water lake river beach sand grass tree trees leaves flowers mountain mountains hill road street
     building buildings house wall walls floor window car cars wheel wheels hair eyes eye teeth tooth lips lip mouth nose ears hand hands
     arm arms leg legs body head shirt dress clothes jacket hat glasses`,
  ),
]);

// --- Region nouns as content (src/edits/planner/refusal.ts) -----------------------------------
// (regions helper's rows: the words an unread clause names a part or the content of the picture by)

/**
 * Parts and things a region model does not find, beyond REGIONS' `none` words, that a clause
 * names only to change them ("give him a beard", "remove the collar"): a model's work.
 */
const CONTENT_PARTS = 'beard moustache mustache neck necks chest heads shirts tshirt tshirts cap collar moon object objects';
/** Content that is no part of the picture but drawn into it ("make her smile", "add snow", "remove the wrinkles"). */
const CONTENT_THINGS = 'sunset sunrise smile smiling wrinkles blemish blemishes tattoo tattoos snow rain';
/**
 * Things worn, put on someone in a picture ("add sunglasses", "put headphones on him"): a model's
 * work. A bare plural after "add" names no thing by itself ("add layers", "add hashtags"), so the
 * things a picture's people wear are named here; not those with another sense here ("shades",
 * "mask", "tie").
 */
const WORN_THINGS = `sunglasses goggles headphones headphone earphones earbuds headset earrings earring necklace necklaces
  bracelet bracelets jewelry jewellery crown tiara helmet scarf necktie bowtie gloves wig wings halo horns veil cape backpack`;
/**
 * Region words with another common sense or role: alone they do not say that a part of the
 * picture is changed ("make them smaller" of the pictures, "a couple of degrees", "so my friends
 * can see it", "a better model", "it leaves a line"). They still name their region in a region's phrase.
 */
const OTHER_SENSES: ReadonlySet<string> = new Set(
  wordsOf(`her him them me us myself ourselves couple model figure figures everyone everybody friend friends mom dad mother father son daughter husband wife
   boyfriend girlfriend brother sister grandma grandpa leaves window wall king queen prince twins`),
);

/**
 * The person asking, named as they name themselves: as the object of an edit ("brighten me",
 * "make us sharper", "blur me out", "zoom in on me") who the photo is of, like "him" and "her".
 * As the one a request is for they are no part of the picture, and canonical() takes them out
 * (text.ts): after "for" ("brighten it for me"); after "to" with a verb that gives or shows
 * ("send it to me", "show it to us") or a look said ("it looks dark to me"); right after a verb that gives ("give me more
 * contrast", "send us a png"), or one that lets ("let me see", "help me crop it"); and after a
 * verb that makes or shows with another object after them ("make me a black and white copy",
 * "get us one", "show me it"), not a degree ("make me a bit brighter" is of the person).
 */
export const SPEAKER_PRONOUNS: ReadonlySet<string> = new Set(['me', 'us', 'myself', 'ourselves']);
export const BENEFIT_LEADS: ReadonlySet<string> = new Set(['for']);
/** Words that may follow the people a request is for, at the end of a clause ("… for him please"). */
export const AFTER_PEOPLE: ReadonlySet<string> = new Set(['please', 'thanks', 'thx', 'pls', 'plz']);
export const GIVING_VERBS: ReadonlySet<string> = new Set('give gave giving send sent sending bring email mail hand pass return deliver forward share post upload'.split(' '));
export const LETTING_VERBS: ReadonlySet<string> = new Set(['let', 'help']);
export const DATIVE_VERBS: ReadonlySet<string> = new Set('make made get got do create find show produce generate build prepare save export render design draw'.split(' '));
/** Words that start a second object after "make me" ("a", "the", "it", "one", "something"); numbers are spelled in digits by then. */
export const SECOND_OBJECT_STARTS: ReadonlySet<string> = new Set('a an the this that these those it one 1 2 some something another any my our your his her their its both'.split(' '));
/** Words after such a start that make it a degree, not a thing ("a bit", "a little", "one notch"). */
export const DEGREE_NOUNS: ReadonlySet<string> = new Set('bit bits little lot lots few couple touch tad smidge shade shades notch notches step steps tone tones level levels stop stops'.split(' '));

/** The region a word names, if it is a region word. */
export const regionOf = (word: string): Region | undefined => REGIONS.get(word);

/** Region words for several whose plural takes no "s", and the words for a group ("the couple"). */
const SEVERAL_WITHOUT_S: ReadonlySet<string> = new Set(
  'people children men women them us everyone everybody couple family newlyweds twins grandchildren grandkids groomsmen gentlemen'.split(' '),
);
/**
 * A region word said of several ("the faces", "the kids", "the couple"): "it" after one is not
 * them ("blur the faces and make it brighter" brightens the picture); "them" is.
 */
export const namesSeveral = (word: string): boolean =>
  regionOf(word) !== undefined &&
  (SEVERAL_WITHOUT_S.has(word) || (word.endsWith('s') && !word.endsWith('ss') && (regionOf(word.slice(0, -1)) !== undefined || (word.endsWith('es') && regionOf(word.slice(0, -2)) !== undefined) || (word.endsWith('ies') && regionOf(`${word.slice(0, -3)}y`) !== undefined))));
/** Who may want the picture for something ("my mum wants it", "she needs it"): the words of the subject, the pronouns of people, and British words for family. */
export const WANTERS: readonly string[] = [...[...REGIONS].filter(([, region]) => region === 'subject').map(([word]) => word), 'i', 'we', 'he', 'she', 'they', 'you', 'mum', 'nan', 'granny'];

/** The words that name one region. */
export const regionWords = (region: Region): string[] => [...REGIONS].filter(([, named]) => named === region).map(([word]) => word);

/**
 * Nouns that name a part of the picture or its content: every region word (the regions a model
 * finds and those it does not) but those with another sense, and the parts and things above. A
 * clause nothing reads that names one changes part of the picture or its content ("change the
 * backdrop", "swap the sky"): a model's work, whichever region word it says.
 */
export const CONTENT_NOUNS: ReadonlySet<string> = new Set([
  ...[...REGIONS.keys()].filter((word) => !OTHER_SENSES.has(word)),
  ...wordsOf(CONTENT_PARTS),
  ...wordsOf(CONTENT_THINGS),
  ...wordsOf(WORN_THINGS),
]);

/**
 * Words for a place in the picture that name a region only after a place's preposition, at the
 * end of the clause or of the picture ("darker in the back", "more contrast at the back of the
 * photo"); elsewhere they are other words ("bring back the colour", "the back of the car").
 */
export const PLACE_REGIONS: ReadonlyMap<string, Region> = new Map([['back', 'background'], ['rear', 'background']]);
export const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(['in', 'at', 'to']);

/** Possessives: what they lead to is someone's own ("my watermark", "our logo"). */
export const POSSESSIVES: ReadonlySet<string> = new Set('my our your his her their'.split(' '));

/** Region words that are also possessives ("her face"): then the word after them is the region. */
export const POSSESSIVE_PRONOUNS: ReadonlySet<string> = new Set(['her']);

/**
 * Words that lead to a region word and belong to its phrase ("of the little", "her", "on his"):
 * taken with it when the rest of the clause is read as the edit of the region.
 */
export const REGION_LEADS: ReadonlySet<string> = new Set(
  // Counts belong to the phrase too ("these two boys", "both kids", "each face"): how many, not how much.
  // Words that describe without singling out ("the old man", "the happy couple") too; a comparison ("the taller man") singles out.
  // "only the girl", "just her face": that region alone, no one of several ("only one of them" is, by "one").
  // "put a blur over her face", "a soft glow across the faces": where a thing added lies.
  'over across the her his their its my your our this that these those of on in to at for around behind little young small main whole entire all any both each every two three four five 2 3 4 5 only just old elderly happy cute beautiful pretty lovely handsome adorable'.split(
    ' ',
  ),
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
export const NEGATORS: ReadonlySet<string> = new Set("no not don't dont never doesn't doesnt shouldn't shouldnt mustn't won't wont".split(' '));

/**
 * "colour the photo", "color it in": the verb with an object and no colour named puts colour
 * into the picture (a model's work), whatever the picture is now ("colour the black and white
 * photo" is not a request for black and white).
 */
export const COLORING_VERBS: ReadonlySet<string> = new Set(['color', 'colorize', 'recolor']);
export const OBJECT_WORDS: ReadonlySet<string> = new Set(['the', 'it', 'this', 'that', 'her', 'him', 'his', 'them', 'their', 'my', 'in']);

/**
 * Nouns of a look or a quality, not of a thing: "add drama", "add some depth" ask for a look no
 * operation is named for (asked about), not for something put in the picture.
 */
export const LOOK_NOUNS: ReadonlySet<string> = new Set(
  'drama depth life sparkle pop punch pizzazz oomph zing flair spice flavor flavour glamour glam polish finish aesthetic aesthetics mood vibe vibes feel feeling style interest dimension dimensions energy magic emotion atmosphere ambience ambiance tone tones effect effects look realism intensity softness'.split(' '),
);

// --- Adjustment words -------------------------------------------------------------------

/** What an adjustment changes; `channel` is one colour's share. */
export type Attribute = 'brightness' | 'contrast' | 'saturation' | 'sharpness' | 'blur' | 'temperature' | 'gamma' | 'channel';
export type Direction = 1 | -1;

/** Nouns: they need a direction from elsewhere in the clause. */
export const NOUNS: Record<string, Attribute> = {
  brightness: 'brightness', exposure: 'brightness', luminosity: 'brightness', lightness: 'brightness', lighting: 'brightness', light: 'brightness',
  contrast: 'contrast', contrasts: 'contrast',
  saturation: 'saturation', vibrance: 'saturation', vibrancy: 'saturation', vividness: 'saturation', intensity: 'saturation', colorfulness: 'saturation',
  sharpness: 'sharpness', clarity: 'sharpness', definition: 'sharpness', detail: 'sharpness', details: 'sharpness', focus: 'sharpness', crispness: 'sharpness',
  // Not "bokeh": only a background has it (regions.ts), never the whole picture.
  blur: 'blur', blurry: 'blur',
  temperature: 'temperature', warmth: 'temperature', warmness: 'temperature',
  // "raise the gamma a little", "bump the gamma up to 1.2": above 1 lightens the mid-tones.
  gamma: 'gamma',
};

/**
 * Verbs of a look whose way is sure when the look is a fault taken away ("remove the fade": more
 * contrast), said of the colours ("fade the colours": less vivid) or said alone ("fade the photo a
 * little": a faded look, less contrast, as the labels read it), but not when it goes somewhere:
 * "fade it to white", "fade the photo into the background", "fade it away" may ask for a fade to
 * white or one to nothing. Each is asked with the readings it may have.
 */
export const UNSURE_VERBS: ReadonlyMap<string, string> = new Map([['fade', 'a faded look (less contrast), a fade to white or a fade out to transparent']]);
/** Words that say where a fade goes ("to white", "away", "out"): with one, "fade" is asked (UNSURE_VERBS). */
export const FADING_TO: ReadonlySet<string> = new Set(['out', 'to', 'into', 'away', 'transparent', 'transparency', 'white', 'black', 'nothing']);

/** Nouns for the opposite of an attribute: more darkness is less brightness. */
export const OPPOSITES: Record<string, Attribute> = { darkness: 'brightness', dullness: 'saturation', softness: 'sharpness', coolness: 'temperature', coldness: 'temperature' };

/** Words that carry their own direction ("brighter", "darken", "vivid", "cooler"). */
export const DIRECTED: Record<string, [Attribute, Direction]> = {
  brighter: ['brightness', 1], brighten: ['brightness', 1], lighten: ['brightness', 1], lighter: ['brightness', 1], bright: ['brightness', 1],
  darker: ['brightness', -1], darken: ['brightness', -1], dim: ['brightness', -1], dimmer: ['brightness', -1], dark: ['brightness', -1],
  // White and black have no hue: more of them is light and dark.
  whiter: ['brightness', 1], whiten: ['brightness', 1], blacker: ['brightness', -1],
  blurrier: ['blur', 1], fuzzier: ['blur', 1], softer: ['blur', 1],
  contrasty: ['contrast', 1], punchy: ['contrast', 1], punchier: ['contrast', 1], fade: ['contrast', -1], faded: ['contrast', -1], flatter: ['contrast', -1], flat: ['contrast', -1],
  saturated: ['saturation', 1], vivid: ['saturation', 1], vibrant: ['saturation', 1], colorful: ['saturation', 1], intense: ['saturation', 1], richer: ['saturation', 1],
  pop: ['saturation', 1], rich: ['saturation', 1],
  desaturate: ['saturation', -1], dull: ['saturation', -1], duller: ['saturation', -1], muted: ['saturation', -1], mute: ['saturation', -1], washed: ['saturation', -1],
  sharpen: ['sharpness', 1], sharper: ['sharpness', 1], sharp: ['sharpness', 1], clear: ['sharpness', 1], clarify: ['sharpness', 1], crisper: ['sharpness', 1], crisp: ['sharpness', 1], defined: ['sharpness', 1], clearer: ['sharpness', 1], focused: ['sharpness', 1], detailed: ['sharpness', 1], deblur: ['sharpness', 1], unblur: ['sharpness', 1],
  warm: ['temperature', 1], warmer: ['temperature', 1], cool: ['temperature', -1], cooler: ['temperature', -1], cold: ['temperature', -1], colder: ['temperature', -1],
};

/**
 * Words of how hard or soft light is ("soften the lighting", "harsher light", "the light is too
 * harsh"): said of the light they are its contrast, never its amount (soft light is not dim
 * light). The way each goes; "harsh" is a fault (AMOUNT_STATES) when said of the light as it is.
 */
export const LIGHT_NOUNS: ReadonlySet<string> = new Set(['light', 'lights', 'lighting']);
export const LIGHT_HARDNESS: ReadonlyMap<string, Direction> = new Map([
  ['soften', -1], ['softer', -1], ['soft', -1], ['gentle', -1], ['gentler', -1], ['diffuse', -1], ['diffused', -1],
  ['harsh', 1], ['harsher', 1], ['hard', 1], ['harder', 1],
]);

export const UP = new Set(['increase', 'raise', 'lift', 'boost', 'more', 'higher', 'high', 'up', 'add', 'enhance', 'bump', 'pump', 'amp', 'punch', 'liven', 'improve', 'greater', 'stronger', 'extra', 'max', 'better']);
/**
 * Words for how much of an attribute there is ("high", "low"), and the way they go. Said of the
 * picture as it is ("the contrast is too low", "the brightness is high") they name a fault, whose
 * fix is the other way; said as a wish ("set the contrast high") they go their own way.
 */
export const AMOUNT_STATES: ReadonlyMap<string, Direction> = new Map([
  ['high', 1],
  ['low', -1],
  ['strong', 1],
  ['weak', -1],
  ['little', -1],
  ['harsh', 1],
]);
/** Words before such a word that say it is the picture as it is: "too", and the copulas. */
export const AS_IT_IS: ReadonlySet<string> = new Set(['too', 'is', 'are', 'was', 'looks', 'seems', 'feels']);

/**
 * Reducing words that are also a look of their own ("soften" blurs): joined by "and" to a quality
 * with its own way ("soften and dim it"), they are a second edit, not the way of that quality.
 */
export const LOOK_REDUCERS: ReadonlySet<string> = new Set(['soften']);
export const DOWN = new Set(['decrease', 'reduce', 'lower', 'less', 'down', 'drop', 'cut', 'remove', 'minus', 'fewer', 'low', 'weaker', 'diminish', 'soften', 'eliminate', 'without', 'away']);
// --- Reduction of a quality (planner branch: grammar of the object of a reducing verb) ---------

/**
 * Words that may stand between a reducing verb and the quality it reduces ("remove the washed out
 * look", "tone down all the vivid colours", "get rid of this dull look"): the quality is then the
 * verb's object, what is taken away, and the edit goes the other way ("less dull" is more vivid).
 */
export const OBJECT_LEADS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'this', 'that', 'its', 'all', 'of', 'some', 'any', 'slightly', 'strongly', 'overly', 'too']);
/**
 * The nouns a quality taken away may qualify and still be the quality ("remove the dull look",
 * "get rid of the vivid colours"): a look or the picture's colours and light as a whole. Before
 * any other noun it describes a thing ("remove the bright light", "get rid of the dark spots"):
 * taking that thing away is no tone edit.
 */
export const REDUCED_QUALITY_HEADS: ReadonlySet<string> = new Set(['look', 'looks', 'feel', 'feeling', 'vibe', 'appearance', 'effect', 'effects', 'filter', 'style', 'tone', 'tones', 'colour', 'colours', 'color', 'colors', 'lighting', 'cast', 'tint', 'hue', 'hues', 'quality']);
/** Reducing words that take a thing away (not only lessen it): their object may be a thing, not a quality. */
export const TAKING_AWAY: ReadonlySet<string> = new Set(['remove', 'eliminate', 'without', 'away', 'cut']);

/**
 * Words that say a reason is about seeing ("brighten it so her face is visible", "so you can see
 * the details"): a tone or filter edit of the whole picture made for that is what is asked, whatever
 * the reason names. With a word that says the opposite (`UNSEEN`), the reason is about hiding.
 */
export const SEEING_WORDS: ReadonlySet<string> = new Set('visible seen see read shows show noticeable readable legible recognizable recognisable discernible'.split(' '));
/** Words of a crop's reason that say what it must keep ("so the logo stays", "so the sign remains"): where that is is not said. */
export const KEPT_WORDS: ReadonlySet<string> = new Set('stay stays remain remains kept keep'.split(' '));
/** Words of such a reason that name nothing in the picture: the picture itself seen better ("so it is easier to see", "so the details are visible"). */
export const SEEN_AS_A_WHOLE: ReadonlySet<string> = new Set('details detail everything all easier easy better clearer clearly more still you u we they people anyone everyone can could will'.split(' '));
export const UNSEEN: ReadonlySet<string> = new Set("not no nobody noone cant can't cannot isnt isn't less hardly barely less invisible unreadable hidden hide".split(' '));

/**
 * A reason that says what colour or tone a part of the picture ends up ("lighten it so that the
 * background is white", "invert it so the black is white"): the words that tie the part to the
 * look (`STATE_VERBS`), the words that may open the part's name (`PART_OPENERS`, and what joins
 * two such statements), and the most words that name the part.
 */
export const STATE_VERBS: ReadonlySet<string> = new Set('is are be becomes become turns turn looks look gets get appears appear'.split(' '));
/** Words that may stand before a verb of being in a stated look ("so the background will be white"). */
export const STATE_MODALS: ReadonlySet<string> = new Set('will would should can could'.split(' '));
/** How a clause starts that tells what an edit will do ("it will lighten her up", "this'll make the colours pop", "it would make her stand out"): foreseen, not asked. */
export const FORESEEING_LEADS: readonly string[] = [
  'it|this|that|these|those|which|he|she|they|everything will|gonna',
  'that|which would _',
  'it|this|that|these|those|which|he|she|they is|are going|gonna',
  "it'll|itll|this'll|that'll|thatll|they'll|theyll|he'll|she'll",
  "its|it's|that's|thats|this's gonna|going",
  // "would" only before a verb of effect: "it would be nice to brighten it", "it would look better in
  // black and white" and "it would help to add contrast" ask, politely.
  'it|this|that|which would make|give|bring',
];
/** Words that praise a look there is ("the grain is nice", "nice vignette"): said of it, it is kept. */
// Not "cool" ("the colours are cool" is a cast; "cool it down" a verb).
export const PRAISE_WORDS: ReadonlySet<string> = new Set('nice good great fine ok okay perfect beautiful lovely awesome amazing gorgeous pretty cute clean'.split(' '));
/** Of those, the ones that praise a look named after them ("nice grain", "a lovely glow"); "ok", "great", "fine" also open a reply. */
export const PRAISING_ADJECTIVES: ReadonlySet<string> = new Set('nice beautiful lovely awesome amazing gorgeous'.split(' '));
/** Verbs of being that tie a praise to what is praised ("the colours look great"). */
export const PRAISE_COPULAS: ReadonlySet<string> = new Set('is are looks look seems seem'.split(' '));
/**
 * Who or what may be told to have done an edit already ("my friend made it black and white",
 * "snapchat made it blurry", "i rotated it"): a clause of one of them and a verb in the past
 * tense is a story, not a request.
 */
export const DOERS: ReadonlySet<string> = new Set('i we you he she they someone somebody snapchat instagram facebook tiktok filter app camera phone'.split(' '));
/** Past forms that tell an edit done, besides the -ed forms of the lexicon's verbs. */
export const DONE_VERBS: ReadonlySet<string> = new Set(
  'made turned got did changed edited filtered ruined messed put took gave sent found shot snapped captured drew wrote scribbled spilled rotated cropped flipped mirrored resized blurred sharpened brightened darkened removed added extended expanded padded cut'.split(' '),
);
/** Past participles that credit who made the picture ("made by me", "taken by my dad", "created by us"). */
export const CREDIT_VERBS: ReadonlySet<string> = new Set('made taken shot drawn painted created edited photographed captured snapped done designed'.split(' '));
/** What may stand before a credit's participle: the picture, and its verb ("this was", "the photo is"). */
export const CREDITED: ReadonlySet<string> = new Set('this it that the photo picture image pic drawing painting was is were'.split(' '));
/** What says "a poster" is the look of one ("make it look like a poster", "a 4 colour poster"), not a poster made. */
export const POSTER_LOOK: ReadonlySet<string> = new Set('like look looks style effect filter level levels color colors tone tones'.split(' '));
/** How a clause opens that introduces who or what the photo shows ("this is my son", "here's my grandma", "meet my dog"). */
export const INTRODUCING: ReadonlySet<string> = new Set(['here', "here's", 'heres', 'meet']);
/**
 * A preface before a colon ("please do the following:", "two edits:", "my request:"): what follows
 * is the request, and the preface asks for nothing of its own. Only these words, numbers among
 * them, and at least one of PREFACE_NOUNS: a statement before a colon ("it is now: sepia", "what
 * i got: black and white") is no preface.
 */
export const PREFACE_NOUNS: ReadonlySet<string> = new Set('following edit edits change changes step steps instruction instructions task tasks list request requests todo to-do'.split(' '));
export const PREFACE_WORDS: ReadonlySet<string> = new Set([...PREFACE_NOUNS, ...'please kindly do make apply the a these those my our here are is few several couple some and'.split(' ')]);
/** Apps people name as where an edit is made ("in canva add a border"): never corrected into an edit's word. */
export const APP_NAMES: ReadonlySet<string> = new Set('canva photoshop gimp lightroom picsart snapseed vsco pixlr instagram snapchat facebook tiktok photopea'.split(' '));
/** Words that may stand before a picture or its subject in a description of it ("a dark pic", "my grey cat"). */
export const DESCRIPTION_LEADS: ReadonlySet<string> = new Set('a an my our his her their'.split(' '));
/** Words that make a clause opened as a foreseen effect a request after all ("it will also need brightening", "… if you also warm it"). */
export const FORESEEN_BUT_ASKED: ReadonlySet<string> = new Set(['need', 'needs', 'if', 'you', 'should', 'must']);
/**
 * … and, opening a clause of its own after an edit, these: the effect told as done ("… and it looked
 * brighter") or said of a part ("… and the image will look sharper", "… and the background would
 * be blurry"; "the kids would like it blurred" is a wish).
 */
export const TOLD_EFFECT_LEADS: readonly string[] = [
  // With no subject, opening a clause of its own: "…, will make it sharper", "…, would make it warmer".
  'will|would make|give|bring',
  'will be|look|seem|get',
  // Not "was" or "were": "as if it were dusk" says the look wanted.
  'it|this|that|these|those|which|he|she|they looked|got',
  'the|her|his|their|its _ [_] will|gonna be|look|seem|appear|pop|stand|make|give|bring|get',
  'the|her|his|their|its _ [_] would be|look|seem|appear|make|give|bring|get',
  'the|her|his|their|its _ [_] looked',
];
/** Words that join a foreseen effect to the edit told before it ("… so it will", "… and this'll"). */
export const FORESEEING_JOINS = 'so|and|then|plus|as|because|cause|coz';
export const PART_OPENERS: ReadonlySet<string> = new Set('the his her its their all every'.split(' '));
export const MAX_PART_WORDS = 4;
/** Words of degree a stated look may carry ("so the background is a bit more white"). */
/** Adjectives of how strong a thing is, between its determiner and its noun ("a slight blur", "some heavy grain"). */
export const STRENGTH_ADJECTIVES: ReadonlySet<string> = new Set('slight light heavy strong subtle soft gentle mild little big huge extra hard small tiny'.split(' '));
export const LOOK_DEGREES: ReadonlySet<string> = new Set('more very really much even a bit little lot pure bright deep pale light dark'.split(' '));
/**
 * The edits that give a look stated of a part, by the look's last word: its kind (any other colour
 * is `colour`), and for each kind the operations that give it, with the way one with a strength
 * must go (1 up, -1 down, 0 any). "brighten it so the walls are white" is given; "blur it so the
 * background is white", "darken it so the sky is brighter" are not, and stay refused.
 */
const LOOK_KINDS: Record<string, string> = {
  ...Object.fromEntries('white whiter light lighter bright brighter'.split(' ').map((word) => [word, 'light'])),
  ...Object.fromEntries('black blacker dark darker'.split(' ').map((word) => [word, 'dark'])),
  ...Object.fromEntries('grey gray greyer grayer'.split(' ').map((word) => [word, 'grey'])),
};
export const lookKind = (word: string): string | undefined => LOOK_KINDS[word] ?? (word in COMPARATIVE_COLORS || namedColor(word) ? 'colour' : undefined);
export const LOOK_GIVERS: Readonly<Record<string, ReadonlyArray<readonly [string, -1 | 0 | 1]>>> = {
  light: [['brightness', 1], ['gamma', 1], ['contrast', 1], ['normalize', 0], ['invert', 0], ['color_balance', 0], ['temperature', 0], ['auto_white_balance', 0]],
  dark: [['brightness', -1], ['gamma', -1], ['contrast', 1], ['invert', 0]],
  grey: [['grayscale', 0], ['saturation', -1]],
  colour: [['tint', 0], ['color_balance', 0], ['temperature', 0], ['hue', 0], ['invert', 0], ['duotone', 0]],
};

/**
 * Quantifiers that name an excess ("remove extra lighting", "reduce the excess contrast"): beside a
 * reducing word they say what is taken away, not more of it.
 */
export const EXCESS_WORDS: ReadonlySet<string> = new Set(['extra', 'excess', 'excessive', 'additional', 'surplus']);

/**
 * Coordinated qualities share the degree said before the first ("make it less grainy and blurry"
 * is less grainy and less blurry, "less yellow and dull" less of both): the degree words that are
 * shared, and the qualities (adjectives of a look or a fault) a bare clause after "and" may be.
 */
export const SHARED_DEGREES: ReadonlySet<string> = new Set(['more', 'less', 'too']);
/**
 * Of the qualities, those said of a fault (a colour named is one too: "less yellow"). "less" or
 * "too" is shared only between qualities of one kind: "less dark and sharp" is less dark and sharp.
 */
export const FAULT_QUALITIES: ReadonlySet<string> = new Set('blurry blurred fuzzy grainy noisy hazy foggy misty flat faded dull muted dark dim desaturated'.split(' '));
/**
 * Faults of the tone with no one way to mend them: a dull or washed-out picture may want light,
 * contrast or colour. Beside a request that changes any of them, that request is the mend.
 */
export const TONE_FAULTS_OF_SEVERAL_MENDS: ReadonlySet<string> = new Set('dull flat faded washed muted lifeless drab bland muddy'.split(' '));
/** Nouns of a fault of the whole picture ("the blur", "the darkness"): fixed or corrected, it is taken away ("fix the blur" sharpens). */
export const FAULT_NOUNS: ReadonlySet<string> = new Set('blur blurriness darkness dullness'.split(' '));
/** Verbs that mend a fault: before a fault's noun, or its quality and "look", they take it away ("correct the blurry look"). */
export const MENDING_VERBS: ReadonlySet<string> = new Set('fix fixes fixed correct corrects corrected'.split(' '));
/** Verbs that swap two colours named after them ("swap red and blue", "switch the black and white"). */
export const COLOR_SWAP_VERBS: ReadonlySet<string> = new Set('swap switch exchange interchange'.split(' '));
/**
 * The ways a picture grows and the sides each names ("extend the image upwards": the top), by
 * lemma ("upwards" is "up"); geometry.ts reads them of a padding, text.ts keeps two joined.
 */
export const GROWTH_WAYS: Readonly<Record<string, ReadonlyArray<'top' | 'right' | 'bottom' | 'left'>>> = {
  up: ['top'],
  down: ['bottom'],
  sideways: ['left', 'right'],
};
/** The four sides of the picture by name. */
export const SIDE_NAME_WORDS: ReadonlySet<string> = new Set(['top', 'bottom', 'left', 'right']);
/** "top left", "lower right": a side of height and one of width said together, or a corner named, is a corner. */
const HEIGHT_SIDES: ReadonlySet<string> = new Set(['top', 'bottom', 'upper', 'lower']);
const WIDTH_SIDES: ReadonlySet<string> = new Set(['left', 'right']);
export const namesCorner = (said: readonly string[]): boolean => said.some((word, i) => (HEIGHT_SIDES.has(word) && WIDTH_SIDES.has(said[i + 1] ?? '')) || word === 'corner' || word === 'corners');
/** Verbs of the picture grown outwards, more canvas round it ("extend the image", "expand it upwards"). */
export const GROWING_VERBS: ReadonlySet<string> = new Set('extend extended expand expanded extrude extruded'.split(' '));
/**
 * Verbs that say only that the picture is to be edited ("edit the image", "please modify this
 * photo"): beside a request, such a clause is its frame, not an edit of its own. Verbs that say
 * a purpose are not among them: "fix", "restore", "enhance" and "improve" may ask for more, and
 * "retouch" is a smoothing of skin ("retouch her face").
 */
export const GENERAL_EDIT_VERBS: ReadonlySet<string> = new Set('edit modify alter change rework tweak photoshop'.split(' '));
/** Verbs that change a quality with no way said ("change the brightness", "adjust the contrast"). */
export const WAYLESS_VERBS: ReadonlySet<string> = new Set([...GENERAL_EDIT_VERBS, 'adjust', 'correct']);
export const QUALITY_ADJECTIVES: ReadonlySet<string> = new Set(
  'blurry blurred fuzzy grainy noisy hazy foggy misty flat faded dull muted vivid vibrant bright dark dim saturated desaturated sharp soft warm cool cold colorful contrasty'.split(
    ' ',
  ),
);

/** Words that carry nothing here: auxiliaries of "should be increased", "needs to be turned up", neutral verbs. */
export const NEUTRAL = new Set([
  'make', 'turn', 'turned', 'set', 'needs', 'need', 'to', 'be', 'should', 'has', 'have', 'must', 'been', 'is', 'are', 'was', 'both', 'basically',
  'edited', 'edit', 'so', 'color', 'colors', 'tone', 'tones', 'tint', 'cast', 'hue', 'shade', 'shades', 'level', 'levels', 'amount', 'of', 'in',
  'the', 'a', 'an', 'it', 'this', 'please', 'bit', 'little', 'some', 'much', 'too', 'way', 'get', 'rid', 'take', 'out', 'all', 'everything',
  'everywhere', 'throughout', 'slightly', 'strongly', 'quite', 'fairly', 'pretty', 'rather', 'even', 'just', 'and', 'also', 'plus', 'its',
  'look', 'looking', 'seem', 'appear', 'feel', 'by', 'adjust', 'adjusted', 'change', 'changed', 'apply', 'give', 'put', 'let', 'can', 'you',
  'bring', 'brought', 'dial', 'crank', 'balance', 'have', 'has', 'with', 'go', 'goes', 'going', 'thing', 'as', "it's",
]);

/**
 * Verbs of an amount said with "up" or "down" ("turn it up", "crank it down", "dial it up 20%"):
 * with no quality named, which one goes up is not said (asked, refusal.ts).
 */
export const AMOUNT_VERBS: ReadonlySet<string> = new Set('turn crank dial ramp bump pump amp knock jack kick notch'.split(' '));
export const WAY_PARTICLES: ReadonlySet<string> = new Set(['up', 'down']);
/**
 * Verbs that with "back" right after them take an amount down ("dial back the exposure", "pull
 * back the saturation", "scale back the contrast"); "bring back the colour" restores and "roll
 * back" may undo: neither is one.
 */
export const BACKING_VERBS: ReadonlySet<string> = new Set('dial pull scale tone ease knock cut'.split(' '));
/**
 * Words after "up" or "down" that, with "the", make it a place after a thing, not a way ("his dog
 * up here", "a kite up in the sky", "a car down on the road"; reading.ts isPlaceParticle).
 */
export const PLACE_AFTER_PARTICLE: ReadonlySet<string> = new Set('here there in on at into onto'.split(' '));
/**
 * One side of the picture made longer or shorter with no verb saying how ("make it wider", "a
 * bit taller", "widen it"): a stretch, more canvas or a crop of the other side may be meant (asked, refusal.ts).
 */
export const SIDE_COMPARATIVES: ReadonlySet<string> = new Set('wider taller narrower shorter longer broader widen broaden'.split(' '));
/** Ordinals: after "the" they name a part or another picture ("the first third", "the last photo"). */
export const ORDINALS: ReadonlySet<string> = new Set(['first', 'second', 'third', 'fourth', 'last', 'next', 'other', 'previous']);
/** Verbs of more or less of anything ("increase it by 20%", "reduce it"): alone with the picture, no quality named either. */
export const AMOUNT_WAYS: ReadonlySet<string> = new Set('increase decrease reduce lower raise boost diminish'.split(' '));

/** Words that say a part of an amount ("add some colour", "a little colour", "a touch of warmth"): more of what there is. */
export const PARTITIVES: ReadonlySet<string> = new Set(['some', 'slightly']); // "a little", "a bit of", "a touch of" read as "slightly" by then

/**
 * Looks laid over the picture, named with no colour: "make the tint lighter", "lighten the filter"
 * say that look's strength (a weaker tint), not the picture's light; which look is not said.
 */
export const LAID_LOOK_NOUNS: ReadonlySet<string> = new Set(['tint', 'tints', 'cast', 'filter', 'filters', 'effect', 'effects', 'overlay', 'wash']);
/** The picture's colours as a noun ("make the colours brighter"), after spelling is made one. */
export const COLOR_NOUNS: ReadonlySet<string> = new Set(['color', 'colors']);
/** A verb of turning, whose particle "up" or "down" makes it a verb of amount ("turn up the reds"). */
export const TURN_VERBS: ReadonlySet<string> = new Set(['turn', 'turns', 'turned', 'turning']);

/** More or less of one colour: channel weights of the colour against its own average. */
export const CHANNEL_COLORS = new Set(['red', 'green', 'blue', 'yellow', 'orange', 'cyan', 'magenta', 'purple', 'pink', 'violet', 'brown']);
export const COMPARATIVE_COLORS: Record<string, string> = { redder: 'red', greener: 'green', yellower: 'yellow', pinker: 'pink', bluer: 'blue', oranger: 'orange' };
/**
 * Hues of warmth and of cold, in their forms of "-ish" and "-y" ("orangey", "reddish", "bluish"):
 * beside "warm" or "cool" they say what the warmth or the cold looks like ("give it a warm orangey
 * tone" is warmer), no tint of their own.
 */
const hueForms = (hues: string): string[] =>
  wordsOf(hues).flatMap((hue) => {
    const stem = hue.endsWith('e') ? hue.slice(0, -1) : hue;
    return [hue, `${hue}ish`, `${hue}y`, `${hue}dish`, `${stem}ish`, `${stem}y`];
  });
export const WARM_HUES: ReadonlySet<string> = new Set(hueForms('red orange yellow gold golden amber peach'));
export const COOL_HUES: ReadonlySet<string> = new Set(hueForms('blue cyan teal aqua'));
/**
 * "more yellowness", "reduce the redness": a colour's noun is that colour's share. So is its plural,
 * an editor's word for the picture's tones of that colour ("tone down the reds", "boost the blues").
 */
export const COLOR_NOUN_FORMS: ReadonlyMap<string, string> = new Map([
  ...[...CHANNEL_COLORS].map((color) => [`${color}ness`, color] as const),
  // Not the plurals that are things as often ("oranges", "pinks", "violets": fruit and flowers).
  ...wordsOf('red green blue yellow cyan magenta purple brown').map((color) => [`${color}s`, color] as const),
]);

/** Nouns for one step of an adjustment: "one shade lighter", "a notch brighter". */
export const STEP_NOUNS: ReadonlySet<string> = new Set(['shade', 'notch', 'step', 'tone']);
/**
 * A photographer's stop is no step but a unit of light: each doubles or halves it ("one stop
 * brighter", "half a stop darker", "2 stops"), so it is said of brightness only.
 */
export const EXPOSURE_STOPS: ReadonlySet<string> = new Set(['stop', 'stops']);
/**
 * Several steps ("two shades darker", "about 5 or 6 levels lighter", "a couple of notches
 * brighter"): the plural step nouns, the words of a count, of an estimate and of a range. How many
 * steps says the degree (`STEP_DEGREES`: up to this many steps is slight, normal; more is strong).
 */
export const STEPS_NOUNS: ReadonlySet<string> = new Set(['shades', 'notches', 'steps', 'tones', 'level', 'levels']);
export const COUNT_WORDS: ReadonlyMap<string, number> = new Map([['a', 1], ['few', 3], ['couple', 2], ['several', 4]]);
export const ESTIMATE_WORDS: ReadonlySet<string> = new Set(['about', 'around', 'roughly', 'approximately', 'maybe', 'like']);
/** Hedges: before a request's verb the request stands ("maybe sharpen it", "could you possibly crop it", "perhaps warm it up"). */
export const HEDGES: ReadonlySet<string> = new Set(['maybe', 'perhaps', 'possibly']);
export const RANGE_WORDS: ReadonlySet<string> = new Set(['or', 'to']);
export const STEP_DEGREES = { slight: 1, normal: 3 } as const;

/**
 * Verbs of an adjustment whose inflections ("warms", "cooled", "deepening", "saturates") are read
 * as the verb, derived by their endings rather than listed (`inflectedVerb`).
 */
export const ADJUSTMENT_VERBS: ReadonlySet<string> = new Set(
  'warm cool brighten darken lighten sharpen soften deepen dim saturate desaturate increase decrease reduce boost raise lower remove enhance intensify clarify fade mute'.split(' '),
);
const VERB_ENDINGS: ReadonlyArray<readonly [string, string]> = [['s', ''], ['es', ''], ['ed', ''], ['d', ''], ['ing', ''], ['ing', 'e'], ['ied', 'y'], ['ies', 'y']];

/**
 * The adjustment verb a word is an inflection of ("warms" → warm, "saturating" → saturate), if it
 * is one; of a synonym's verb, the lexicon word it is read as ("illuminated" → brighten).
 */
export function inflectedVerb(word: string): string | undefined {
  for (const [ending, restore] of VERB_ENDINGS) {
    if (!word.endsWith(ending) || word.length <= ending.length + 2) continue;
    const stem = word.slice(0, -ending.length) + restore;
    if (ADJUSTMENT_VERBS.has(stem)) return stem;
    if (SYNONYM_VERBS.has(stem)) return SYNONYMS.get(stem);
  }
  return undefined;
}

/** Verbs that start a request: a second one inside a clause may start a second request. */
export const REQUEST_VERBS: ReadonlySet<string> = new Set([
  ...wordsOf(`take make increase decrease add change turn convert rotate crop flip mirror blur sharpen brighten darken lighten remove reduce
  resize enlarge apply zoom straighten boost lower raise desaturate saturate invert enhance put give insert intensify deepen soften dehaze denoise
  get write draw select use edit`),
  // "make the backdrop white unblur the photo", "make it grey replace the backdrop with black".
  ...wordsOf('unblur replace'),
  // Verbs of size and canvas and of an unnamed change ("decrease the contrast extend the image",
  // "increase the exposure adjust the clarity"): verbs only, never an adjective a look is said by.
  ...wordsOf('extend expand extrude shrink trim pixelate tilt adjust fix'),
  // Verbs of cutting out, deleting, placing and switching ("remove the backdrop switch him to
  // black and white", "delete the background place her on white"): verbs before an object only.
  ...wordsOf('switch cut delete erase isolate place whiten paste'),
]);

/** The verbs whose regular inflections requestVerbOf reads. */
const INFLECTED_REQUEST_VERBS: ReadonlySet<string> = new Set([...REQUEST_VERBS, ...ADJUSTMENT_VERBS, ...MENDING_VERBS, ...WAYLESS_VERBS]);
/**
 * The request verb a regular inflection is of ("the colours need correcting", "the white balance
 * needs adjusting", "i want it converted to black and white", "it needs cropping"): the -ing and
 * -ed forms of every request verb, with a doubled last consonant undone, are read as the verb, so
 * none of them has to be listed (LEMMAS keeps the irregular ones and those read as another word).
 */
export function requestVerbOf(word: string): string | undefined {
  for (const ending of ['ing', 'ed']) {
    if (!word.endsWith(ending) || word.length < ending.length + 3) continue;
    const stem = word.slice(0, -ending.length);
    const doubled = stem.length > 2 && stem.at(-1) === stem.at(-2) ? stem.slice(0, -1) : undefined;
    for (const verb of [stem, `${stem}e`, doubled]) if (verb !== undefined && INFLECTED_REQUEST_VERBS.has(verb)) return verb;
  }
  return undefined;
}

/**
 * The lexicon word a word is read as: its lemma ("increased" → increase), or, for a synonym
 * WordNet gives of a lexicon word (src/edits/planner/synonyms.ts, generated by
 * scripts/synonyms.ts), that word's lemma ("illuminate" → brighten, "escalate" → increase).
 * Synonyms are typo targets like the words they stand for ("iluminate" is "illuminate", not
 * "eliminate").
 */
export function lemmaOf(word: string): string | undefined {
  const synonym = SYNONYMS.get(word);
  return LEMMAS[word] ?? (synonym === undefined ? undefined : (LEMMAS[synonym] ?? synonym));
}

// --- Inflections and spellings ------------------------------------------------------------

/**
 * One form for the inflections and synonyms of direction and operation words ("increased",
 * "boosting" → increase), and misspellings that are never meant as the word they are
 * ("boarder" → border).
 */
export const LEMMAS: Record<string, string> = {
  increased: 'increase', increases: 'increase', increasing: 'increase', raised: 'raise',
  raising: 'raise', boosted: 'boost', boosting: 'boost', upwards: 'up', upward: 'up', clarified: 'clarify', contrasting: 'contrasty',
  decreased: 'decrease', decreases: 'decrease', decreasing: 'decrease', reduced: 'reduce', reduces: 'reduce', reducing: 'reduce',
  // Verbs of strength, not of size: alone with the picture ("intensify it", "weaken it") they name
  // no quality, so they are read as "boost" / "diminish" (refused bare), never as "increase it" /
  // "decrease it", which say the size.
  heighten: 'boost', heightened: 'boost', intensify: 'boost', intensified: 'boost', amplify: 'boost', amplified: 'boost',
  strengthen: 'boost', strengthened: 'boost',
  lessen: 'diminish', lessened: 'diminish', weaken: 'diminish', weakened: 'diminish', diminished: 'diminish',
  // Said of a picture, these are its size ("minimize the photo": smaller).
  maximize: 'increase', minimize: 'decrease',
  // "brighten it further", "zoom in further": more of it.
  further: 'more',
  lowered: 'lower', lowering: 'lower', downwards: 'down', downward: 'down', removed: 'remove', removing: 'remove',
  brightened: 'brighten', brightening: 'brighten', darkened: 'darken', darkening: 'darken', lightened: 'lighten', lightening: 'lighten',
  sharpened: 'sharpen', sharpening: 'sharpen', blurred: 'blur', blurring: 'blur', blurriness: 'blurry', fuzzy: 'blurry',
  saturate: 'saturated', saturating: 'saturated', desaturated: 'desaturate', desaturating: 'desaturate',
  straightened: 'straighten', straightening: 'straighten',
  zoomed: 'zoom', zooming: 'zoom', flipped: 'flip', flipping: 'flip', rotated: 'rotate', rotating: 'rotate',
  enlarged: 'enlarge', enlarging: 'enlarge', added: 'add', adding: 'add',
  // "insert a vignette", "insert more green": a verb of adding.
  insert: 'add', inserted: 'add', inserting: 'add',
  // "vintage looking", "make it look older": the look asked for, however the verb is inflected.
  looking: 'look', looked: 'look',
  // "wash out the colours": make them washed out.
  wash: 'washed',
  // "draw a border": a verb of adding ("drawing" is the sketch's noun).
  draw: 'add', draws: 'add', drew: 'add',
  // "provide more white space": a verb of adding.
  provide: 'add', provided: 'add', providing: 'add',
  // "flip it to create a mirror image", "create a vignette": a verb of making, as "make" is read
  // (a thing made, "create a new sky", is content either way). Its other forms tell of what was
  // or is made ("i created a vignette", "this filter creates a glow"), no request.
  create: 'make',
  // "make the tint lesser": the comparative written with its own ending.
  lesser: 'less',
  fades: 'fade', fading: 'fade', fadeout: 'fade', unblurred: 'unblur', unblurry: 'unblur', punched: 'punch', livened: 'liven',
  brightens: 'brighten', darkens: 'darken', lightens: 'lighten', sharpens: 'sharpen',
  // A common misspelling, and never meant as the word it is.
  boarder: 'border', boarders: 'borders', caste: 'cast', contract: 'contrast',
  tthe: 'the', teh: 'the', hte: 'the', tha: 'the', tge: 'the', rhe: 'the',
  mke: 'make', mak: 'make', amke: 'make', maek: 'make', mkae: 'make',
  reddish: 'red', yellowish: 'yellow', bluish: 'blue', blueish: 'blue', greenish: 'green', pinkish: 'pink', orangish: 'orange', orangey: 'orange', purplish: 'purple',
  whitish: 'white', greyish: 'grey', grayish: 'gray', blackish: 'black', brownish: 'brown',
};

/**
 * Region edits (src/edits/planner/regions.ts), word classes of their phrases:
 * - `space`: what is round a thing ("everything around the girl", "the area behind the logo");
 * - `relation`: how the space stands to the thing: with a space word it is the background;
 *   `except`-like ones make the rest of the picture the background without one ("black and white
 *   except the bird");
 * - `foreground thing`: what a space may be round besides the subject words (a logo on a plain ground);
 * - `removal`: taking the background away (made transparent);
 * - `fill verb`: words that carry a plain colour into a region without adding to it;
 * - `crop`, `smooth`: the region-only edits of the subject and the faces;
 * - `selector`: words that pick one of several ("the man on the left"): no model picks one.
 */
export const REGION_SPACES: ReadonlySet<string> = new Set('everything everywhere area areas space rest surroundings surrounding scenery setting portion part parts region'.split(' '));
// Not "round": "the round logo" is a shape, and "round the girl" is rare beside "around".
export const REGION_RELATIONS: ReadonlySet<string> = new Set('around behind outside surrounding'.split(' '));
/**
 * Nouns of a colour washed over the picture: changed from one colour to another ("change the tint
 * from blue to purple") they read as a swap, but may mean the blue parts made purple or the
 * picture's blue wash made a purple one; blind labels read it both ways, so it is asked about
 * (rule-planner.ts).
 */
export const TINT_NOUNS: ReadonlySet<string> = new Set('tint tints tinting'.split(' '));
/** Nouns of a colour laid over the whole picture, said as a fault ("there's a red tint", "a yellow glow", "a blue haze"). */
export const CAST_NOUNS: ReadonlySet<string> = new Set('tint cast hue glow haze tone wash'.split(' '));
/**
 * Nouns of what a colour is in the picture, said of the colours of a swap: "change the hue from
 * blue to purple", "change the colour blue to yellow", "the blue tones to purple", "turn the
 * shading from red to green". Not "cast": a cast from one colour to another is one colour
 * balance, the first colour less and the second more (adjustment-rules.ts). A tint's is asked about (above).
 */
export const COLOR_ASPECT_NOUNS: ReadonlySet<string> = new Set(['color', 'colors', 'hue', 'hues', 'tone', 'tones', 'shade', 'shades', 'shading', 'coloring', ...TINT_NOUNS]);
/** Plural nouns of the picture's qualities that "them" may stand for ("the colours are dull, make them pop"): the whole picture's, not people. */
export const QUALITY_PLURALS: ReadonlySet<string> = new Set('colors colours tones hues shadows highlights tints'.split(' '));
/**
 * Verbs made of a colour ("whiten", "blacken"): of the picture or a face, lighter or darker; of
 * the background, which a plain colour may fill, made that colour ("whiten the backdrop").
 */
export const COLOR_VERBS: ReadonlyMap<string, string> = new Map([['whiten', 'white'], ['blacken', 'black']]);
/** A background smoothed is blurred (the picture's smoothing takes its grain away, a face's its flaws): "smooth out the backdrop". */
export const BACKGROUND_SMOOTHING: ReadonlyMap<string, string> = new Map(['smooth', 'smoothen', 'smoothed', 'smoother'].map((word) => [word, 'blur']));
/** Verbs that read as no edit alone but share the object of the verb after them ("crop and zoom in on the girl"). */
export const SHARED_OBJECT_VERBS: ReadonlySet<string> = new Set(['crop', 'zoom']);
/** Words that make a shade stronger inside a colour's phrase ("a very dark blue backdrop"; "very" reads as "strongly" by then). */
export const SHADE_INTENSIFIERS: ReadonlySet<string> = new Set(['very', 'really', 'strongly']);
/** Words for a shade of a colour ("light blue", "a dark border", "neon green"). */
export const SHADE_WORDS: ReadonlySet<string> = new Set(['light', 'dark', 'pale', 'pastel', 'bright', 'deep', 'neon']);
/**
 * The outcome of a region's edit said after it ("blur the background so the dog stands out",
 * "darken the backdrop to make her pop"): the leads of the outcome, the subject's pronouns, and
 * the words that say the subject shows more. The outcome is no edit of its own.
 */
/**
 * Leads whose verb says the outcome itself ("blur the backdrop to focus on the girl", "… to draw
 * attention to the dog", read "add attention", "… to bring out the subject"): the subject or the
 * faces may follow with nothing more.
 */
export const OUTCOME_VERB_LEADS: ReadonlyArray<readonly string[]> = [['to', 'focus'], ['to', 'add', 'attention'], ['to', 'draw', 'attention'], ['to', 'bring', 'out']];
export const OUTCOME_LEADS: ReadonlyArray<readonly string[]> = [
  ['so', 'that'], ['so'], ['to', 'make'], ['to', 'help'],
  ...OUTCOME_VERB_LEADS,
];
// The person asking is in the photo too: "darken the background so I stand out", "… so we pop".
export const SUBJECT_PRONOUNS: ReadonlySet<string> = new Set(['she', 'he', 'they', 'i', 'we']);
export const STANDING_OUT: ReadonlySet<string> = new Set([
  ...'stand stands standing out pop pops popping more visible noticeable prominent focus center centre attention is are be will can the of'.split(' '),
  // "so you can see her face better", "so u can actually see him": the subject seen.
  ...'you u we one see seen better clearly actually really properly easily'.split(' '),
  // "… to focus on the girl", "… to draw attention to the dog", "… to bring out the subject".
  ...'on to attention out'.split(' '),
  // "remove the background so only the dog is left", "… so just the subject shows": the subject alone, kept.
  ...'only just left remains remaining shows showing'.split(' '),
]);
/**
 * The region edited, said again as "it" in its outcome ("blur the background so it is less
 * distracting", "brighten her face to make it stand out"): the words such an outcome may have.
 */
export const REGION_OUTCOME_WORDS: ReadonlySet<string> = new Set([...'it its less distracting looks look'.split(' ')]);
/** Of which one must say what the outcome is: it shows, stands out or distracts less. */
export const STANDING_OUT_VERBS: ReadonlySet<string> = new Set('stand stands pop pops visible noticeable prominent distracting'.split(' '));
/**
 * "darken the background so that the tree is visible", "blur the backdrop so the sign is readable":
 * an outcome that only says a thing shows (not a region, no colour, no look) is why, not an edit.
 */
export const SHOWING_OUTCOMES: ReadonlySet<string> = new Set('visible noticeable seen readable legible'.split(' '));
/**
 * Looks of a region said in words that say other things alone, with the one word they are: "out
 * of focus" ("out" takes a region away); "highlight her face", "a highlight on the background"
 * (light put on a part; of the whole picture "the highlights" are its bright tones).
 */
export const LOOK_PHRASES: ReadonlyArray<readonly [readonly string[], string]> = [
  [['out', 'of', 'focus'], 'blurry'],
  [['highlight'], 'brighten'],
];
/** Words for more of the background than is wanted ("crop out the excess background"): taking it away is a crop to the subject. */
export const SURPLUS_WORDS: ReadonlySet<string> = new Set(['excess', 'extra', 'unnecessary', 'unneeded', 'surplus', 'superfluous']);
/**
 * A crop that leaves the background out ("crop the photo to exclude the background", "crop her
 * face only, without the background", "crop it with less background") is a crop to the subject or
 * the face named: the words that leave it out, and verbs that crop when the picture is their object ("cut the picture").
 */
export const EXCLUDING_WORDS: ReadonlySet<string> = new Set(['exclude', 'excluding', 'excludes', 'without', 'minus', 'less']);
export const PICTURE_CUTTING_VERBS: ReadonlySet<string> = new Set(['cut', 'trim']);
/** A crop's result said after "so" ("crop it so only the girl shows"): what leads to the region, and what says it shows. */
export const ONLY_LEADS: ReadonlySet<string> = new Set(['only', 'just']);
export const SHOWING_WORDS: ReadonlySet<string> = new Set('show shows showing shown visible is are remains remain left in frame'.split(' '));
/**
 * Or said as the region filling the picture ("crop it so he fills the frame", "crop so that the dog
 * takes up the whole shot"): the verbs of filling, and the picture's words after them.
 */
export const FILLING_WORDS: ReadonlySet<string> = new Set('fills fill filling takes take taking up most all whole entire frame picture photo image shot'.split(' '));
export const FILLING_VERBS: ReadonlySet<string> = new Set(['fills', 'fill', 'filling', 'takes', 'take', 'taking']);
/** The verbs of such a result said before the region ("crop it to show only the man", "… showing just her face"). */
export const SHOWING_VERBS: ReadonlySet<string> = new Set(['show', 'showing', 'display', 'displaying']);
/** Words that point at the picture shown ("brighten the faces right there"), dropped from the end of a region's clause; "over there" may pick one of several, and stays. */
export const POINTING_PHRASES: ReadonlyArray<readonly string[]> = [['right', 'there'], ['right', 'here'], ['here']];
/**
 * Adjectives that say how a region is, before its word after a determiner ("tone down the bright
 * background", "blur the busy backdrop", "lighten the dark background"): a description, never the
 * edit's direction (which the verb gives). After the word they are what it should become ("make
 * the background dark").
 */
export const REGION_STATES: ReadonlySet<string> = new Set([
  ...'bright dark dim blurry blurred sharp dull busy distracting cluttered messy noisy grainy ugly boring harsh faded washed colorful vivid overexposed underexposed'.split(' '),
  // Which one it is: the one there now, or where it was taken ("remove the outdoor background", "make the current backdrop white").
  ...'outdoor outdoors indoor current existing original old present actual'.split(' '),
]);
export const DETERMINERS: ReadonlySet<string> = new Set('the this that these those her his their its my your our'.split(' '));
/** Space words that cover the whole picture: left in the edit of the subject or the faces ("blur everything and the man"), the edit is not of that part alone. */
export const WHOLE_SPACES: ReadonlySet<string> = new Set(['everything', 'everywhere']);
export const REGION_EXCEPT: ReadonlySet<string> = new Set('except besides excluding instead apart but'.split(' '));
/**
 * Words that tie a region to an edit whose object is the picture ("blur it in the background",
 * "brighten it around her face", "make it grey except the dog", "give it a white background"):
 * without one, a region named after "verb it" is not what the edit is of ("sharpen it thanks
 * man", "brighten it i like her face as it is").
 */
export const REGION_TIES: ReadonlySet<string> = new Set([
  ...REGION_EXCEPT,
  // Not "and": "sharpen it, the background is blurry" and "brighten it, my dad is in it" are read
  // joined by an "and", and the region after it is no object of the verb before.
  ...'of in on at to into onto from around behind within inside outside over across under underneath above below beside near between than where for with so only just showing until leaving'.split(' '),
]);
/** Verbs whose second object is a thing given to the first ("give it a white background", "put it on a grey backdrop"). */
export const SECOND_OBJECT_VERBS: ReadonlySet<string> = new Set(['give', 'add', 'put', 'place', 'set']);
/**
 * Phrases of a region's clause read as the one word they mean: what REGION_EXCEPT's words say
 * ("everything other than the dog"), a retouch said as a verb and its particle ("touch up her face"),
 * what a crop leaves out.
 */
export const REGION_PHRASES: ReadonlyArray<readonly [readonly string[], string]> = [
  [['other', 'than'], 'except'],
  [['aside', 'from'], 'except'],
  [['apart', 'from'], 'except'],
  // "the skin tone of the man", "his facial skin", "the facial area": the face's skin, said as one word.
  [['skin', 'tone'], 'skin'],
  [['skin', 'tones'], 'skin'],
  [['facial', 'skin'], 'skin'],
  [['facial', 'area'], 'face'],
  [['touch', 'up'], 'retouch'],
  // "crop it to leave out the background": left out of the crop.
  [['leave', 'out'], 'exclude'],
  // "give the background a bokeh effect": the blur of what is behind the subject (said of the whole
  // picture, or of a thing no model finds, it stays unread).
  [['bokeh'], 'blur'],
];
/** Looks only a background takes (read as another word above): said of the subject or a face, unread. */
export const BACKGROUND_LOOKS: ReadonlySet<string> = new Set(['bokeh']);
export const FOREGROUND_THINGS: ReadonlySet<string> = new Set([
  ...'logo logos object objects product products item items circle shape subject text'.split(' '),
  // What a product photo is of, and what a rider is on ("everything except the bracelet", "all but the bike and its rider").
  ...wordsOf('bracelet bracelets necklace necklaces earrings jewelry jewellery shoe shoes sneakers bottle bottles mug bag bags handbag motorcycle motorbike bike bicycle'),
  // What a drawing or a graphic is of ("everything but the character", "the background other than the cartoon").
  ...wordsOf('character characters cartoon cartoons graphic graphics drawing drawings illustration illustrations artwork icon icons emblem badge sticker'),
]);
export const REMOVAL_WORDS: ReadonlySet<string> = new Set('remove removed removing delete erase eliminate cut out rid isolate extract separate transparent off cutout'.split(' '));
/** Words between a removal and what it removes ("remove all of the red"): a colour after them is the one taken away. */
export const REMOVED_LEADS: ReadonlySet<string> = new Set(['the', 'all', 'of', 'any', 'some', 'that', 'this']);
/** Verbs that keep the subject and take the rest away ("isolate the dog", "extract the subject"). */
// "make a cutout of the dog": the noun of cutting out, too.
export const CUT_OUT_VERBS: ReadonlySet<string> = new Set(['isolate', 'extract', 'separate', 'cutout']);
/**
 * Verbs that take away what follows them with "out" ("cut out the background", "edit the backdrop
 * out", "crop the background out"). Said of the subject, only "cut" keeps it ("cut out the girl");
 * "crop the man out" may as well take him away.
 */
export const OUT_VERBS: ReadonlySet<string> = new Set(['cut', 'edit', 'crop']);
/** Words that part the subject from the background ("cut the dog out of the backdrop", "isolate her from the background"). */
export const PARTED_FROM: ReadonlyArray<readonly string[]> = [['out', 'of'], ['from'], ['off']];
/** Verbs that take a region away with "off" or "out" ("turn the background off", "take the backdrop out"). */
export const REMOVAL_VERBS: ReadonlySet<string> = new Set(['get', 'take', 'turn', 'switch']);
/**
 * Colour names that are first a thing or a stuff ("snow", "chocolate", "gold"): said as what a
 * region is covered in or turned into ("cover the background in snow", "turn the backdrop into
 * chocolate") they name that thing, drawn there (a model's work), not its colour; said as how the
 * region is ("make the background peach", "a gold coloured backdrop") they are the colour. The
 * words that lead to such a thing (THING_LEADS).
 */
export const THING_COLOR_NAMES: ReadonlySet<string> = new Set(
  'snow chocolate tomato salmon lime lemon wheat linen honeydew orchid plum peach mint coral olive seashell moccasin bisque gold silver lavender sand'.split(' '),
);
// "put snow on the backdrop", "add sand over the background": a thing laid there by a verb of placing or adding too.
export const THING_LEADS: ReadonlySet<string> = new Set(['in', 'with', 'into', 'put', 'add', 'place', 'lay']);
export const FILL_VERBS: ReadonlySet<string> = new Set([
  // The passive too ("the background should be changed to white", "the bg must be turned black").
  ...'made turned changed converted painted filled switched swapped must has have'.split(' '),
  ...'make turn change convert transform create paint fill cover color colour recolor into to with solid plain pure complete total be become replace replaced swap switch for one 1 all completely entirely totally fully just only so its whole and needs need should a an of the it'.split(' '),
]);
/**
 * Words that lead to the colour a region has now, the one it is changed from ("change the
 * backdrop from grey to blue", "make it white instead of black", "blue rather than green"):
 * that colour is no target. After "from" the new colour must be said with "to" or "into".
 */
export const FORMER_COLOR_LEADS: ReadonlyArray<readonly string[]> = [['from'], ['instead', 'of'], ['rather', 'than'], ['in', 'place', 'of']];
export const FROM_TO: ReadonlySet<string> = new Set(['to', 'into']);
/**
 * Words that add some of a colour to a region rather than paint it over ("add blue to the
 * background", "a bit more red in her face"): a colour cast there (a tint), not a fill.
 */
export const REGION_CAST_WORDS: ReadonlySet<string> = new Set('add more some extra bit little slightly touch hint tinge splash dash increase boost'.split(' '));
/** The verbs of a crop to a region ("crop to the dog", "zoom in on her face", "focus in on the girl"), some with the particle they need. */
export const CROP_VERBS: ReadonlyMap<string, string | undefined> = new Map([
  ['crop', undefined],
  ['zoom', undefined],
  ['focus', 'in'],
  // "a closeup of the girl", "close up on the dog", "make a close-up of her face".
  ['closeup', undefined],
  ['close', 'up'],
]);
// "crop tighter around her", "tighten the crop around the man", "crop the photo down to the couple", "crop to her face only".
export const CROP_WORDS: ReadonlySet<string> = new Set('crop cropped zoom focus frame in on around closer close closely tightly tight tighter tighten down only closeup up make'.split(' '));
/**
 * "center on the people", "crop it to center the baby": centring the subject or a face as the
 * verb (first, or after "to", "and", "then") is a crop to it, whose box it centres. Elsewhere the
 * word is a place ("the man in the center": one of several).
 */
export const CENTERING_VERBS: ReadonlySet<string> = new Set(['center', 'centered']);
export const VERB_PLACES: ReadonlySet<string> = new Set(['to', 'and', 'then']);
/** Words that ask for smoother skin, and words that may come with them ("even out her skin tone", "give him smoother skin"). */
export const SMOOTH_WORDS: ReadonlySet<string> = new Set('smooth smoother smoothen smoothed soften softer retouch airbrush airbrushed even evenly equable uniform flawless'.split(' '));
/**
 * Small flaws of the skin, many of them, whose taking away is a smoothing ("remove the
 * imperfections from her skin", "get rid of the blemishes on his face"). One flaw pointed at
 * ("this blemish", "the scar"), moles and wrinkles need a model.
 */
/**
 * Words of a person's age ("make him older", "the baby younger"): said of the subject or a face they
 * ask for the person drawn at another age (a model's work), never the picture's old look (sepia),
 * which they ask for only when said of the picture ("make the photo look older").
 */
export const AGE_WORDS: ReadonlySet<string> = new Set(wordsOf('old older oldest aged elderly aging ageing young younger youthful'));
export const SKIN_FLAWS: ReadonlySet<string> = new Set(wordsOf('imperfections imperfection flaws flaw blemishes acne pimples zits spots'));
/** Of those, the flaws only skin has: they name the face when no region is named ("clear up the acne"). */
export const FACE_ONLY_FLAWS: ReadonlySet<string> = new Set(wordsOf('acne pimples zits'));
/**
 * Parts of a face that are skin, each with the part it names ("airbrush her forehead, cheeks and
 * chin"): no model outlines one alone ("airbrush his forehead" stays refused), but two or more
 * named together are the face's skin, and a smoothing of them is of the face (it keeps edges).
 */
export const FACE_SKIN_PARTS: ReadonlyMap<string, string> = new Map([
  ['forehead', 'forehead'], ['foreheads', 'forehead'], ['cheek', 'cheek'], ['cheeks', 'cheek'], ['chin', 'chin'], ['chins', 'chin'],
]);
/** Words of the face region that are its skin, and verbs that, said of it, smooth it ("clear up her skin", "clean up his complexion"). */
export const SKIN_WORDS: ReadonlySet<string> = new Set(['skin', 'complexion']);
export const SKIN_CLEARING_WORDS: ReadonlySet<string> = new Set(['clear', 'clean', 'cleanse', 'clearer', 'cleaner']);
export const SMOOTH_COMPANIONS: ReadonlySet<string> = new Set(['tone', 'tones', 'texture', 'give', 'out', 'look', 'looks']);
/** Verbs that put the subject on a new plain background ("put her on a white background"), and what they put it on with. */
export const PLACING_VERBS: ReadonlySet<string> = new Set(['put', 'place', 'set', 'show']);
/** Verbs that add a region's new fill ("… and add a grey one", "use a white one"). */
export const FILL_ADDING_VERBS: ReadonlySet<string> = new Set(['add', 'give', 'use', 'insert']);
// "put her on a white background", "place the model to a grey one", "set him in a black backdrop".
export const PLACED_ON: ReadonlySet<string> = new Set(['on', 'onto', 'against', 'over', 'to', 'in', 'into', 'upon']);
/** Verbs that hide faces ("censor the faces", "hide his face"): pixelated. Said of people, only anonymizing is about their faces ("hide the people" may take them away). */
export const HIDING_VERBS: ReadonlySet<string> = new Set('hide censor obscure anonymize anonymise'.split(' '));
export const ANONYMIZING_VERBS: ReadonlySet<string> = new Set(['anonymize', 'anonymise']);
/** Words that say an edit is for privacy ("blur the faces for privacy"): the reason, not another edit. */
export const PRIVACY_WORDS: ReadonlySet<string> = new Set(['privacy', 'anonymity']);
/**
 * A part kept as it is beside an edit of the picture ("make it black and white but keep the girl
 * in colour"): the verbs, the words that say how it is kept, and the words that join the two.
 */
export const KEEP_VERBS: ReadonlySet<string> = new Set(['keep', 'leave']);
export const KEPT_AS_IS: ReadonlySet<string> = new Set('in color colour colors colours colored coloured as is was it same untouched unchanged alone original intact natural normal sharp focus focused crisp'.split(' '));
/** Of those, the words that say the state it is kept in ("in colour", "untouched", "as it is"); "keep the dog in the picture" says none. */
export const KEPT_STATES: ReadonlySet<string> = new Set('color colour colors colours colored coloured is was same untouched unchanged alone original intact natural normal sharp focus focused crisp'.split(' '));
export const CLAUSE_JOINS: ReadonlySet<string> = new Set(['and', 'but', 'while']);
export const SELECTORS: ReadonlySet<string> = new Set('one left right middle center centre front first second third last other another tallest smallest biggest oldest youngest'.split(' '));
/** Words that refer back to a region named before them in the clause ("blur the background and make it grey"). */
export const REGION_PRONOUNS: ReadonlySet<string> = new Set(['it', 'them', 'its', 'one', '1', 'this', 'that']);
/** Words that make an edit of a look into one of a kind the clause does not name ("remove the background effect"). */
export const EFFECT_WORDS: ReadonlySet<string> = new Set(['effect', 'effects', 'filter', 'filters', 'style', 'look']);
/** Words whose edit of a region could be a look or new content ("clean up the background": sharper, or emptied?): refused there. */
export const REGION_AMBIGUOUS: ReadonlySet<string> = new Set(['clear', 'clean', 'cleaner', 'tidy', 'empty', 'simple', 'simpler', 'fix', 'better', 'nicer']);
/**
 * Of those, the verbs that take away their object when it is the background, said with no more
 * than a particle of taking away ("clear the background", "clear away the backdrop"); "clear up
 * the background" (tidied? sharper?) and "make the background clear" stay refused.
 */
export const CLEARING_VERBS: ReadonlySet<string> = new Set(['clear']);
export const CLEARING_PARTICLES: ReadonlySet<string> = new Set(['out', 'away', 'off', 'entire', 'whole', 'all', 'completely', 'entirely']);

/** Nouns that name an edit or what it adds ("add a vignette", "a caption", "the rotation"). */
export const OPERATION_NOUNS: ReadonlySet<string> = new Set(
  wordsOf(`vignette border borders frame watermark caption title label logo text lines outline outlines grain noise thumbnail sepia
   grayscale greyscale monochrome rotation padding margin canvas corners shadows highlights midtones tint filter effect`),
);

/**
 * The units said after a number, as words ("90 degrees", "20 percent", "10 pixels"): a word one
 * slip from one of them right after a number is that unit ("90 degres", "20 percnt", "a 10 pixle
 * border"), read before the units are joined to their numbers.
 */
export const UNIT_WORDS: ReadonlySet<string> = new Set(['pixel', 'pixels', 'percent', 'degree', 'degrees']);
/**
 * Words of a measure said after a number that no edit reads (a print size, a type size): "add a
 * 2 cm border", "a 5 inch margin". With the number they say how much of what follows, never a
 * thing to add (refusal.ts): the clause is not understood rather than sent to a model.
 */
export const MEASURE_WORDS: ReadonlySet<string> = new Set([
  ...UNIT_WORDS, 'px', 'cm', 'mm', 'in', 'inch', 'inches', 'pt', 'pts', 'point', 'points', 'dpi',
  'centimeter', 'centimeters', 'centimetre', 'centimetres', 'millimeter', 'millimeters', 'millimetre', 'millimetres',
]);

// --- The typo vocabulary, generated from the tables above ----------------------------------------

/** What a typo may be corrected to: a noun (it may name a thing after "add a"), or another word (a verb, an adjective, a direction). */
export type PartOfSpeech = 'noun' | 'other';

/**
 * Every word the tables above and the operation registry (names and keywords) give a meaning, as
 * a misspelling may stand for it, with its part of speech: a noun when a noun table holds it. A
 * word added to any of these tables is corrected to from then on; nothing is listed twice.
 */
const TYPO_TARGETS: ReadonlyMap<string, PartOfSpeech> = (() => {
  const nouns = [
    ...Object.keys(NOUNS), ...Object.keys(OPPOSITES), ...COLOR_NOUN_FORMS.keys(), ...STEP_NOUNS, ...REGIONS.keys(), ...WHOLE_IMAGE,
    ...FOREGROUND_THINGS, ...EFFECT_WORDS, ...OPERATION_NOUNS, ...SKIN_FLAWS, ...BACKGROUND_LOOKS,
    // WordNet's synonyms of those nouns ("dimness"): a misspelt synonym is corrected to it, not to a neighbour of another meaning.
    ...[...SYNONYMS].filter(([, word]) => NOUNS[word] !== undefined || OPPOSITES[word] !== undefined).map(([synonym]) => synonym),
  ];
  const others = [
    ...Object.keys(DIRECTED), ...UP, ...DOWN, ...Object.values(LEMMAS), ...Object.keys(COMPARATIVE_COLORS), ...CHANNEL_COLORS,
    ...REGION_VERBS, ...CUT_OUT_VERBS, ...HIDING_VERBS, ...REMOVAL_WORDS, ...SMOOTH_WORDS, ...SYNONYMS.keys(),
    ...OPERATIONS.flatMap((entry) => [...entry.name.split('_'), ...entry.catalogue.keywords]),
    // How much ("slighty brighter").
    'slightly', 'strongly',
    // The picture as all of its things ("make everyhing larger").
    ...PICTURE_PRONOUNS,
  ];
  const table = new Map<string, PartOfSpeech>();
  for (const word of others) table.set(word, 'other');
  for (const word of nouns) table.set(word, 'noun');
  return new Map([...table].filter(([word]) => word.length >= 4 && isLetters(word)));
})();

/** Every word a typo may be corrected to. */
export const TYPO_VOCABULARY: readonly string[] = [...TYPO_TARGETS.keys()];

/** The part of speech of a typo target. */
export const partOfSpeech = (word: string): PartOfSpeech | undefined => TYPO_TARGETS.get(word);

/**
 * What a word means, as far as the tables say: two typo targets of one meaning ("sharp",
 * "sharpen": more sharpness) are no rival corrections of a typo between them ("sharpn").
 */
export function meaningOf(typoTarget: string): string {
  const word = SYNONYMS.get(typoTarget) ?? typoTarget;
  // "girll": the girl or the girls, one region word in either number.
  const singular = word.endsWith('s') ? word.slice(0, -1) : word;
  if (REGIONS.get(singular) !== undefined && REGIONS.get(singular) === REGIONS.get(word)) return `region ${singular}`;
  const directed = DIRECTED[word];
  if (directed) return directed.join(' ');
  const attribute = NOUNS[word];
  return attribute === undefined ? (LEMMAS[word] ?? word) : `${attribute} 1`;
}

// --- Redteam block: how a region is said to be (statements of a fault about a region) -------------

/**
 * Verbs that say how a region is ("the background IS blurry", "her face LOOKS washed out", "the
 * backdrop HAS a yellow tint"), each with the form said of "it": the rest of the clause is read as
 * a description of the whole picture is (a fault asks for its fix, anything else is no request),
 * never as the look asked for ("the background is blurry" is no blur).
 */
export const DESCRIBING_VERBS: ReadonlyMap<string, string> = new Map([
  ['is', 'is'], ['are', 'is'], ['was', 'is'], ['were', 'is'],
  ['looks', 'looks'], ['look', 'looks'], ['seems', 'seems'], ['seem', 'seems'], ['appears', 'appears'], ['appear', 'appears'],
  ['feels', 'feels'], ['feel', 'feels'], ['has', 'has'], ['have', 'has'],
]);

/**
 * "make the black and white photo colour", "make the faded photo vivid": a look said between a
 * definite determiner and the picture's noun is how the picture IS (which picture is meant), never
 * the look asked for; it is taken out of the clause. Indefinite "a black and white photo" is what
 * is asked, and stays.
 */
export const PICTURE_STATE_LEADS: ReadonlySet<string> = new Set('the this that my your our his her their'.split(' '));
export const PICTURE_STATES: ReadonlySet<string> = new Set(
  'blackandwhite grayscale monochrome sepia color colored colorful dark darker bright dim blurry blurred fuzzy faded dull pixelated hazy foggy overexposed underexposed old vintage original current rectangular square'.split(' '),
);
/**
 * Slips of "the" that are words (or a word's start) of their own: "the" only before a word for the
 * picture ("make he image bigger", "th photo"), where they are dropped with it. Slips that are no
 * word ("teh", "hte") are spellings of "the" everywhere (LEMMAS).
 */
export const THE_SLIPS_BEFORE_PICTURE: ReadonlySet<string> = new Set(['he', 'th']);
/** Kinds of picture named as the picture itself ("this selfie is too dark", "the screenshot is blurry"). */
export const PICTURE_KINDS: ReadonlySet<string> = new Set('selfie snapshot screenshot snap'.split(' '));
/** Regions have their own reading of a state before them (regions.ts); only a colourless one with colour asked is read here. */
export const COLORED_REGION_NOUNS: ReadonlySet<string> = new Set('background backdrop face faces skin'.split(' '));
/** A picture said to have no colour, with colour asked of it ("… in colour", "… colorful"): colourised, which only a model can do. */
export const COLORLESS_STATES: ReadonlySet<string> = new Set('blackandwhite grayscale monochrome sepia'.split(' '));
export const COLORING_WORDS: ReadonlySet<string> = new Set('color colors colored colorful colorize colorized'.split(' '));
/**
 * A background may well be wanted dark or out of focus, so "the background is dark" says how it
 * is, not a fault; it is one with these words ("too dark", "overexposed", "washed out") or a cast
 * it has ("the background has a yellow tint"). Faces and the subject have no such wanted state.
 */
export const BACKGROUND_FAULT_MARKS: ReadonlySet<string> = new Set('too overly overexposed underexposed oversaturated undersaturated washed has'.split(' '));
/**
 * "darken the background and the edges", "blur the background and the noise": a clause of only a
 * definite determiner and the noun of an edit has no verb of its own. It is the previous verb's
 * second object, an edit of its own only when that verb adds ("add a vignette and the border").
 */
export const OBJECT_ONLY_LEADS: ReadonlySet<string> = new Set('the its his her their these those this that'.split(' '));
export const OBJECT_ONLY_NOUNS: ReadonlySet<string> = new Set([...OPERATION_NOUNS, ...'edges edge corner noise grain film blur glow'.split(' ')]);
export const ADDING_VERBS: ReadonlySet<string> = new Set('add adding apply put give insert include use place create draw want need'.split(' '));
/** "make the border and the background white": a verb that needs what it makes a thing (its complement), with the thing's noun only, before more. */
export const COMPLEMENT_VERBS: ReadonlySet<string> = new Set('make turn get render'.split(' '));
/** Objects of such a verb that are the whole picture ("make it …", "turn the whole photo …"); the picture's nouns count too. */
export const PICTURE_OBJECTS: ReadonlySet<string> = new Set('it this everything'.split(' '));
export const PICTURE_OBJECT_LEADS: ReadonlySet<string> = new Set('the this my our your whole entire'.split(' '));
/**
 * "sharpen the dog's face": the faces found are people's (BlazeFace), so an animal's face is no
 * face region (with a person in the picture, that person's face would be edited instead).
 */
export const ANIMAL_OWNERS: ReadonlySet<string> = new Set(
  wordsOf(`dog dogs cat cats puppy puppies kitten kittens animal animals pet pets bird birds horse horses deer lion lions tiger tigers
   bear bears fox wolf rabbit rabbits bunny owl eagle duck ducks cow cows sheep goat elephant giraffe monkey squirrel parrot lizard
   turtle spider insect butterfly`),
);
/**
 * "make it white", "turn the photo black": a colour with no hue made of the whole picture has
 * several readings, each named in the refusal (a tint of white or black would be a blank picture).
 */
export const PLAIN_COLOR_READINGS: ReadonlyMap<string, readonly string[]> = new Map([
  ['white', ['"make it brighter"', '"make the background white"', '"make it black and white"', '"fix the white balance"']],
  ['black', ['"make it darker"', '"make the background black"', '"make it black and white"']],
]);
/** The words around such a colour that make it the whole picture's ("make it white", "turn the image all white"). */
export const WHOLE_COLOR_FRAME: ReadonlySet<string> = new Set([...WHOLE_IMAGE, ...'make turn it this all completely entirely the paint color'.split(' ')]);
/**
 * "crop to the face with a 20% margin", "zoom in with some room": "with" a margin after a crop says
 * how tight the crop is, not canvas added after it (a pad would undo it); a crop to a region takes
 * an even margin in percent as its own, the others are asked about.
 */
export const CROPPING_OPERATIONS: ReadonlySet<string> = new Set(['crop', 'crop_aspect', 'crop_margin', 'crop_to_region', 'circle', 'trim', 'thumbnail']);
/** Words that say a crop's margin, after "with" ("crop to the face with a 20% margin"). */
export const MARGIN_WORDS: ReadonlySet<string> = new Set('margin margins padding room space border'.split(' '));
export const CROP_SAID: ReadonlySet<string> = new Set('crop cropped crop_to zoom'.split(' '));
/**
 * The only words a bare "zoom" (no "in" or "out") may be said with in its clause, for it to be
 * read as "zoom in": its object and a degree ("zoom", "zoom the photo a bit"). Anything else said
 * with it may turn it round ("zoom 80%", "inverse zoom"), make it a noun ("add a zoom effect") or
 * name what it is for ("zoom so only the couple shows"): then it is read as before.
 */
export const BARE_ZOOM_WORDS: ReadonlySet<string> = new Set('it this that the my a bit little slightly tad touch please'.split(' '));
/** "add the words salt and pepper": unquoted words to write that were not read as a text: asked to be quoted. */
export const WRITING_VERBS: ReadonlySet<string> = new Set('add insert write put type place print'.split(' '));
/**
 * Nouns for a piece of writing that name no kind of overlay of their own: after a writing verb,
 * what follows them is the text ("add the slogan Fresh Bread Daily", "insert the phrase good
 * luck", "write the message see you soon"), as after "text".
 */
export const WRITING_NOUNS: ReadonlySet<string> = new Set('sentence sentences phrase phrases slogan message quote quotation motto tagline'.split(' '));
export const TEXT_NOUNS: ReadonlySet<string> = new Set([...'text word words caption title letter letters label heading'.split(' '), ...WRITING_NOUNS]);
/** "mirror and flip": a bare "flip" beside a mirror may be the vertical one (alone it is a mirror): asked about unless an axis is said. */
export const MIRROR_WORDS: ReadonlySet<string> = new Set('mirror mirrored mirroring reflect reflected'.split(' '));
export const FLIP_WORDS: ReadonlySet<string> = new Set('flip flipped flipping flop flopped'.split(' '));
export const FLIP_AXES: ReadonlySet<string> = new Set('vertical vertically horizontal horizontally upside axis sideways'.split(' '));
/** Only a flip asked beside the mirror ("mirror and flip") is asked about; one said as its means ("mirror it by flipping it") is the mirror. */
export const FLIP_JOINS: ReadonlySet<string> = new Set('and then also plus'.split(' '));
export const FLIP_MEANS: ReadonlySet<string> = new Set('by via through using with'.split(' '));
/** "blur or darken the background", "make it sharper or brighter": alternatives, asked which ("more or less", "or so" are degrees). */
export const ALTERNATIVE_WORDS: ReadonlySet<string> = new Set(['or', 'either', 'whichever']);
export const NOT_ALTERNATIVE_BEFORE: ReadonlySet<string> = new Set(['more']);
export const NOT_ALTERNATIVE_AFTER: ReadonlySet<string> = new Set(['so', 'less', 'not']);
// --- end of the redteam block ---------------------------------------------------------------------

// --- Where a name stands, and what a misspelt word may be there (words.ts, spellings.ts) ---------

/**
 * Words after which a word names someone or something: prepositions of place and relation,
 * determiners, and who is thanked or greeted ("on Milly", "my Milly", "thanks Milly").
 */
export const NAME_LEADS: ReadonlySet<string> = new Set([
  ...['on', 'of', 'for', 'to', 'with', 'from', 'at', 'by', 'about', 'around', 'behind', 'beside', 'near', 'under', 'over', 'into', 'past'],
  ...['the', 'this', 'that', 'my', 'his', 'her', 'their', 'our', 'your'],
  ...['thanks', 'thank', 'hi', 'hey', 'hello', 'dear', 'love'],
]);
/** Verbs that take an object without being in the vocabulary's tables ("make Milly brighter"). */
export const OBJECT_VERBS: ReadonlySet<string> = new Set(['make', 'give', 'put', 'get', 'let', 'have', 'turn', 'keep']);
/** Verbs that say how the word before them is ("Milly looks dark", "the photo is gainy"). */
export const SAYING_SO_VERBS: ReadonlySet<string> = new Set([...DESCRIBING_VERBS.keys(), "'s"]);
/** Pronouns, after which a word is their verb or an adverb, not a name ("it wuold look brighter"). */
export const PRONOUNS_BEFORE_VERB: ReadonlySet<string> = new Set(['it', 'i', 'you', 'we', 'they', 'he', 'she', 'this', 'that', 'everything']);
/** Verbs after which a word says how something is, not who ("it would look brighter"). */
export const LINKING_VERBS: ReadonlySet<string> = new Set(['look', 'looks', 'seem', 'seems', 'appear', 'appears', 'become', 'becomes', 'feel', 'feels', 'be', 'is', 'are', 'was']);
/** Verbs of being, after which a word is what something is said to be ("this is Mitsy"). */
export const SAID_TO_BE: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', "it's", 'its', "'s", "that's", "this's", "he's", "she's", 'im', "i'm"]);
/** Words before a word that make it a common noun of someone ("the dog", "my sister"). */
export const SUBJECT_LEADS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'my', 'his', 'her', 'their', 'our', 'your', 'this', 'that', 'these', 'those', 'some', 'two', 'three']);

// --- How a request is put: needs, passives, casts, wishes (spellings.ts, words.ts, text.ts, rule-planner.ts) ---

/** Verbs that take a thing away, whose "it" after a part's fault may be the fault as well as the part. */
export const TAKING_AWAY_VERBS: ReadonlySet<string> = new Set(['remove', 'delete', 'erase', 'eliminate', 'get', 'take', 'lose', 'cut']);
/** Words that say the picture has a cast, besides fillers, the picture's words and the cast's ("there's a slight red tint"). */
export const CAST_STATEMENT_WORDS: ReadonlySet<string> = new Set(['there', "there's", 'theres', 'are', 'was', "it's", 'its', 'looks', 'seems', 'too', 'very', 'really', 'quite', 'slight', 'slightly', 'strong', 'kind', 'sort', 'original', 'all', 'over', 'across', 'throughout', 'lighting']);
/** Verbs a cast is mended with besides the request verbs ("tone it down", "filter that out"). */
export const CAST_MENDING_VERBS: ReadonlySet<string> = new Set(['tone', 'filter', 'neutralize', 'neutralise']);
/** Verbs of having, by which a clause says what something has ("it has a green cast"). */
export const HAVING: ReadonlySet<string> = new Set(['has', 'have', 'had']);
/** Verbs of needing before what is needed done ("the colours need correcting"). */
export const NEED_VERBS: ReadonlySet<string> = new Set(['need', 'needs', 'require', 'requires']);
/** Words of obligation before "be" and what is to be done ("it should be cropped", "the text has to be removed"). */
export const OBLIGING_MODALS: ReadonlySet<string> = new Set(['should', 'must', 'has', 'have']);
/** Modals that open a request put as a question ("can you …", "can the contrast be raised?"). */
export const REQUESTING_MODALS: ReadonlySet<string> = new Set(['can', 'could', 'would', 'will']);
/** Who a request is put to: "can you be …" is no passive. */
export const ADDRESSED_AS_SUBJECT: ReadonlySet<string> = new Set(['you', 'u', 'ya', 'i', 'we']);
/** Modals: a thing that needs or is asked something is never one ("Will needs brightening" names someone). */
export const MODALS: ReadonlySet<string> = new Set(['will', 'would', 'can', 'could', 'should', 'may', 'might', 'must', 'shall']);
/** Qualities a person has of their own, not the picture's ("the baby's temperature is too low"). */
export const OWN_QUALITIES: ReadonlySet<string> = new Set(['temperature']);
/** Determiners a possessor may have ("the man's", "this girl's"). */
export const POSSESSOR_DETERMINERS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'his', 'her', 'their']);
/** Verbs after which an -ing form is what is needed done ("the colours need correcting"). */
export const NEEDING_VERBS: ReadonlySet<string> = new Set(['need', 'needs', 'needed', 'require', 'requires', 'want', 'wants']);
/** Verbs of wishing or causing before an object and what is wished done to it ("i want it converted", by now "make it converted"). */
export const WISHING_VERBS: ReadonlySet<string> = new Set(['want', 'wants', 'wanted', 'like', 'need', 'needs', 'prefer', 'have', 'make', 'get']);
/** Whom a request is put to after a modal ("can you …", "could u …"). */
export const ADDRESSEES: ReadonlySet<string> = new Set(['you', 'u', 'ya']);

// --- How a request is framed, and what a description says besides its fault (spellings.ts, complaints.ts) ---

/** Those who may be asked to do an edit ("could someone …", "i'm hoping you can …"). */
const ASKED = 'you|u|someone|anyone|somebody|anybody';
/** The first person with its verb of being, as people write it ("i'm", "im", "i am" is two words). */
const I_AM = ["i'm|im", 'i am'];
/**
 * Ways of putting a request before its verb that ask nothing of their own: "is it possible to …",
 * "would someone be able to …", "is there any chance of …", "i'm hoping someone can …", "i'd
 * love it if you could …", "i'm after …", "all i'm asking for is …". Taken out where a clause
 * opens, the request is what is left ("… getting it brightened", "… more contrast").
 */
export const REQUEST_FRAMES: readonly string[] = [
  'is it possible to',
  'is there a|any way to',
  'would it be possible to',
  'how|what about',
  `[can|could|would|will] ${ASKED} [please|pls|plz] be able to`,
  `are|is ${ASKED} able to`,
  '[is] [there] any chance of|that',
  `[is] [there] any chance [that] ${ASKED} could|can|would|might [please|pls|plz]`,
  ...I_AM.map((lead) => `${lead} [really] hoping [that] [${ASKED}] [can|could|will|would] [please|pls|plz]`),
  `i|we [really] hope [that] ${ASKED} can|could|will|would [please|pls|plz]`,
  `i'd|id|we'd [really|absolutely] love [it] if ${ASKED} [could|can|would]`,
  `i|we would [really|absolutely] love [it] if ${ASKED} [could|can|would]`,
  "i'd|id|we'd [really|absolutely] love [to] [see|have|get] [for]",
  'i|we would [really|absolutely] love [to] [see|have|get] [for]',
  ...I_AM.flatMap((lead) => [`${lead} after`, `${lead} looking|going for`, `${lead} looking to`]),
  ...I_AM.map((lead) => `all ${lead} asking for is`),
  'all i|we want|need|ask [for] is',
  // "would you mind brightening it": the -ing form opening what is left is the request's verb.
  `would|do ${ASKED} [please] mind`,
  `i'd|id|we'd [really] appreciate [it] if ${ASKED} [could|can|would]`,
  `i|we would [really] appreciate [it] if ${ASKED} [could|can|would]`,
  // "i think the background is too light": what is said after it, said.
  'i|we think|feel|reckon|guess|believe [that]',
];
/**
 * Words said after a description of the picture that only place it in time, in the picture or in
 * taste ("it looks flat right now", "it's too dark all over", "a bit bright for my taste"): the
 * fault is the same without them.
 */
export const DESCRIPTION_TAILS: readonly string[] = [
  'right|just now',
  'at the|this moment',
  'at present',
  'currently|now|here|overall|everywhere|throughout',
  'as it is|stands',
  'all over',
  'in|on this|that shot|one|photo|picture|image|pic',
  'for my|our taste|liking',
  'to me',
  'imo|imho',
  'in my opinion',
];
/** "too dark compared to everything else": said of a fault with "too" only ("darker compared to the rest" says how it is). */
export const COMPARED_TAILS: readonly string[] = ['compared to|with everything|anything else', 'compared to|with the rest [of] [the] [image|photo|picture|pic|shot]'];
/** "it came out too dark", "the photo turned out blurry": what the picture became is how it is. */
export const CAME_OUT_VERBS: ReadonlySet<string> = new Set(['came', 'comes', 'come', 'turned', 'turns']);
/** Words that may follow "all over" and "came out" as how the picture is: degrees before a quality. */
export const STATE_DEGREE_WORDS: ReadonlySet<string> = new Set('a slightly quite rather pretty kind sort kinda so too overly far bit little very really way super somewhat extremely much'.split(' '));
/** Comparatives of strength before a quality named ("stronger contrast", "weaker colours"): more or less of it. */
export const STRENGTH_COMPARATIVES: Readonly<Record<string, string>> = { stronger: 'more', weaker: 'less' };
/** Parts of the picture that with "every" and "of" are all of it ("every part of the photo", "every inch of the image"). */
export const PART_OF_WHOLE_NOUNS: ReadonlySet<string> = new Set(['part', 'bit', 'inch', 'corner', 'area', 'pixel', 'section']);
/** Verbs by which the one asking wishes a thing done ("i want the colour removed", "i'd like it cropped"). */
export const WISHED_DONE_VERBS: ReadonlySet<string> = new Set(['want', 'like', 'need', 'prefer', 'love']);
/** The one asking, and what may stand between them and their wish ("i'd really like …", "we would just want …"). */
export const WISHERS: ReadonlySet<string> = new Set(['i', 'we', "i'd", 'id', "we'd", 'would', 'really', 'just', 'also', 'only', 'so', 'and', 'please', 'pls', 'plz', 'now', 'then', 'do']);
/** Verbs of liking, which wish only after "would" ("i'd like it cropped"; "i like it cropped" praises). */
export const FOND_VERBS: ReadonlySet<string> = new Set(['like', 'love']);
/** "would", however it is written after its subject. */
export const WOULD_FORMS: ReadonlySet<string> = new Set(["i'd", 'id', "we'd", 'would']);

// --- Words of the second rewording pass: who is told of, praise, particles, stories (text.ts, spellings.ts, rule-planner.ts) ---
/** "it", however it is written with its verb ("it's", "its"): a fault said of it may be a part's. */
export const IT_FORMS: ReadonlySet<string> = new Set(['it', "it's", 'its', 'itll', "it'll"]);
/** Replies that praise the picture as it is ("love it", "perfect", "looks great"). */
export const PRAISING_REPLIES: ReadonlySet<string> = new Set(['love it', 'i love it', 'perfect', 'looks great', 'it looks great', 'looks perfect', 'looks amazing', 'amazing', 'love this', 'i love this', 'so good', 'looks good', 'nice', 'cool', 'great', 'lovely', 'awesome', 'beautiful', 'gorgeous']);
/** Who is spoken of, never asked: "he", "she", "they" ("i would darken it" is how a forum asks). */
export const THIRD_PERSONS: ReadonlySet<string> = new Set(['he', 'she', 'they']);
/** Words that make a picture named another one than the one sent ("the first photo", "my last pic"). */
export const OTHER_PICTURES: ReadonlySet<string> = new Set(['first', 'second', 'third', 'last', 'previous', 'next', 'other', 'earlier', 'older', 'another', 'original', 'before', 'above', 'below', 'left', 'right', 'top', 'bottom', 'sent', 'posted', 'yesterday']);
/** Verbs that ask with their particle ("bring it down", "clean up the grain", "cool it down"), after "please". */
export const PHRASAL_REQUEST_VERBS: ReadonlySet<string> = new Set(['bring', 'clean', 'cool', 'warm', 'tone', 'turn', 'take', 'get', 'fix', 'put', 'give', 'crank', 'bump', 'dial', 'knock', 'lighten', 'brighten', 'darken']);
/** Words that with "and" before a quality only say it is welcome ("nice and bright"). */
export const WELCOMING: ReadonlySet<string> = new Set(['nice', 'good', 'lovely']);
/** Verbs of being before "nice and …" ("it's nice and dark", "it looks nice and sharp", "it came out nice and dark"). */
export const SAYING_SO: ReadonlySet<string> = new Set(['is', 'are', 'was', 'looks', 'look', 'seems', 'out', 'been', 'its']);
/** Words said before "please" that ask with it ("can you please …", "and please …"): no clause ends before it. */
export const ASKING_BEFORE_PLEASE: ReadonlySet<string> = new Set(['you', 'u', 'ya', 'someone', 'anyone', 'somebody', 'anybody', 'can', 'could', 'would', 'will', 'and', 'then', 'also', 'just', 'so', 'but', 'now', 'i', 'we', 'kindly', 'plus', 'or']);
/** Words that tie a clause to the one before ("so", "and then"): a story told after them is still told. */
export const TELLING_LINKS: ReadonlySet<string> = new Set(['so', 'and', 'then', 'but', 'also', 'plus']);
/** Verbs that stand for another said before ("i already did"). */
export const PRO_VERBS: ReadonlySet<string> = new Set(['did', 'done']);
/** Particles of a phrasal verb ("tone down", "zoom in", "cut out"). */
export const PARTICLES: ReadonlySet<string> = new Set(['up', 'down', 'in', 'out', 'off', 'away']);
/** Participles not made with -ed, as the verb asked ("i want the background gone": removed; "i'd like the boy cut out"). */
export const IRREGULAR_DONE: Readonly<Record<string, string>> = { gone: 'remove', cut: 'cut' };
/** Determiners a thing wished done is named with. */
export const CARRIED_THING_LEADS: ReadonlySet<string> = new Set(['the', 'this', 'that', 'these', 'those', 'her', 'his', 'their', 'its', 'all', 'both', 'every']);
/** Objects of a verb said after it: a clause with one tells or asks, it names no thing wished done. */
export const OBJECT_PRONOUNS: ReadonlySet<string> = new Set(['it', 'them', 'him', 'me', 'us']);
/** Words that carry a clause on from the one before ("… and the saturation reduced"). */
export const CARRYING_ON: ReadonlySet<string> = new Set(['and', 'then', 'also', 'plus']);
/** Words that say a part is fine as it is ("her face is fine"); "cute", "lovely" praise the one in it, not how it looks. */
export const FINE_AS_IT_IS: ReadonlySet<string> = new Set(['fine', 'ok', 'okay', 'good', 'perfect', 'alright']);
