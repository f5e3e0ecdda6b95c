import { isLetters, phrases, rewrite, wordClass, words, wordsOf, type Rewrite } from './phrases.ts';
import { REQUEST_VERBS, requestVerbOf, ADDRESSED, ADDRESSED_BEFORE_REQUEST, ADJUSTMENT_VERBS, BACKING_VERBS, NOUNS, OPPOSITES, FAULT_NOUNS, FORESEEING_JOINS, FORESEEING_LEADS, PRAISING_ADJECTIVES, TOLD_EFFECT_LEADS, FAULT_QUALITIES, inflectedVerb, lemmaOf, MENDING_VERBS, regionOf, QUALITY_ADJECTIVES, SAID_TO_BE, SAYING_SO_VERBS, SUBJECT_LEADS, PRONOUNS_BEFORE_VERB, WANTERS, WARM_HUES, COOL_HUES, WHOLE_IMAGE, NEED_VERBS, OBLIGING_MODALS, REQUESTING_MODALS, ADDRESSED_AS_SUBJECT, MODALS, OWN_QUALITIES, POSSESSOR_DETERMINERS, REQUEST_FRAMES, PART_OF_WHOLE_NOUNS, CAME_OUT_VERBS, STATE_DEGREE_WORDS, STRENGTH_COMPARATIVES, WISHED_DONE_VERBS, WISHERS, FOND_VERBS, WOULD_FORMS, DIRECTED, PICTURE_NOUNS, PARTICLES, IRREGULAR_DONE, CARRIED_THING_LEADS, OBJECT_PRONOUNS, CARRYING_ON } from './lexicon.ts';
import { SYNONYMS } from './synonyms.ts';
import { correctTypo, fitsWhereItStands, isCommonSlip, PEOPLE_AND } from './words.ts';
import { namedColor } from './colors.ts';

/**
 * One form for each way of writing a word or a turn of phrase, as tables: spellings ("colour",
 * "centre", "-ise"), words run together or apart ("water mark", "anti-clockwise"), numbers in
 * words, fractions, degrees ("a touch", "a lot"), and the words that say what a clause is besides
 * a request (a question, a negation), which set a flag on the clause and are taken out of it.
 * Read in the order of the tables, over the clause's words.
 */

/** British and other spellings of one word. */
const SPELLED: Record<string, string> = { centre: 'center', centred: 'centered', jpg: 'jpeg', tif: 'tiff', lil: 'little', ppl: 'people' };
/** Degree phrases written as one word ("alot", "abit", "alittle"): the words apart, read as the phrase. */
const RUN_TOGETHER: Record<string, string> = { alot: 'a lot', abit: 'a bit', alittle: 'a little', atad: 'a tad', atouch: 'a touch', alittlebit: 'a little bit' };
/** Stems whose -ise forms are written -ize. */
const ISE_STEMS = ['normal', 'poster', 'optim', 'pixel', 'color', 'stabil', 'maxim', 'minim', 'custom', 'emphas', 'satur'];
const ISE_ENDINGS: Record<string, string> = { ise: 'ize', ised: 'ized', ising: 'izing', isation: 'ization' };

/**
 * A slip of one of the two commonest kinds (two letters swapped, one left out) corrected here,
 * before the phrases below read the clause, so that they read the words meant: the words that
 * say a clause is no request ("it wuold look brighter", "tahnks for flipping it", "brighten it,
 * wthout cropping", "it would look brighetr": corrected only after these were read, each had
 * become one more edit), and those of the phrases of degree and turns ("a littel brighter",
 * "coutner clockwise"). A word only where it may stand (after "a", a thing named is no "bigger";
 * where a name stands, no word that carries nothing). Other slips are corrected with the clause's
 * other words (words.ts), after the phrases: a name is as often a letter changed from a verb
 * ("Raisa looks blurry" stays a statement).
 */
function earlySlip(word: string, words: string[], at: number): string | undefined {
  if (word.length < 5 || word === PEOPLE_AND || namedColor(word) !== undefined || lemmaOf(word) !== undefined || inflectedVerb(word) !== undefined) return undefined;
  const corrected = correctTypo(word);
  if (corrected === undefined || !isCommonSlip(word, corrected)) return undefined;
  // A subject's word with nothing before it that makes it one ("Tigre is blurry": a name), and any
  // word said to be so with none ("Sharpe looks dark": a name, not "sharpen").
  // (After a pronoun the word is its verb or adverb: "it wuold look brighter".)
  const determined = SUBJECT_LEADS.has(words[at - 1] ?? '') || PRONOUNS_BEFORE_VERB.has(words[at - 1] ?? '');
  if (!determined && (regionOf(corrected) === 'subject' || SAYING_SO_VERBS.has(words[at + 1] ?? ''))) return undefined;
  // Nor what something is said to be ("this is Mitsy", "it's Mitsy": a name, read as "misty" before
  // the statement is read, had been a haze removed): left to the clause's other words.
  // (Said of the picture, a fault: "my old photo is gainy" is grainy, and mended.)
  if (SAID_TO_BE.has(words[at - 1] ?? '') && !WHOLE_IMAGE.has(words[at - 2] ?? '')) return undefined;
  return fitsWhereItStands(corrected, words, at) ? corrected : undefined;
}

/** A word in its one spelling. */
function spelled(word: string, at: number, words: string[]): string {
  if (SPELLED[word]) return SPELLED[word];
  const corrected = earlySlip(word, words, at);
  if (corrected !== undefined) return corrected;
  if (word.startsWith('pixellat')) return `pixelat${word.slice(8)}`;
  for (const stem of ISE_STEMS) {
    const ending = word.startsWith(stem) ? ISE_ENDINGS[word.slice(stem.length)] : undefined;
    if (ending) return stem + ending;
  }
  return word;
}

/** The words that join the background to the photo that holds it ("the whole photo and the background"). */
const PHOTO_AND: ReadonlySet<string> = new Set(['and', '&', 'including', 'incl']);

/** "forty-five" has been split at its hyphen; "3-quarters" keeps it (a digit). */
const joined = (matched: string[]) => matched.join('');

const SLIPS = new Set(['oops', 'accident', 'mistake', 'error']);
const SLIP_VERBS = new Set(['hit', 'pressed', 'clicked', 'sent']);
const POLITE_END = new Set(['please', 'pls', 'thanks', 'thx']);
const CAST_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'magenta', 'cyan', 'violet'];

/** "add a filter (all over the picture)": the start of a filter said by what it does. */
const FILTER_ON = 'add|apply|use|put|slap|stick|throw|chuck|lay [a|an|the|some] [color|photo] filter|filters [all] [to|on|onto|over|in|into|across] [the|this|my] [entire|whole] [image|photo|picture|pic|it|this]';

/**
 * "you put a filter on it so it looks darker", "my friend added a filter that warms it": a filter
 * someone is said to have put on is told, not asked ("can you put …" is asked: its "you" follows a modal).
 */
const toldBy = (word: string, before?: string) => TELLING_DOERS.has(word) && !REQUESTING_MODALS.has(before ?? '');
const TELLING_DOERS: ReadonlySet<string> = new Set(['i', 'you', 'u', 'we', 'he', 'she', 'they', 'someone', 'somebody', 'friend', 'mom', 'mum', 'dad', 'photographer', 'who']);

/** Verbs of an edit a filter may be said to do ("a filter to add contrast", "a filter that mutes the colours"), however inflected. */
const isFilterVerb = (word: string) => word === 'add' || word === 'adds' || ADJUSTMENT_VERBS.has(word) || inflectedVerb(word) !== undefined;

/** Words that praise a look there is ("the grain is nice"), and verbs of liking it. */
const PRAISING = [...PRAISING_ADJECTIVES].join('|');
const PRAISING_VERBS = 'like|love|enjoy|adore';
wordClass('wanter', WANTERS);
wordClass('warmhue', WARM_HUES);
wordClass('coolhue', COOL_HUES);
/** What a picture may be for ("for my mom's birthday", "for our wedding album"). */
wordClass('occasion', ['birthday', 'wedding', 'anniversary', 'christmas', 'xmas', 'party', 'album', 'memorial', 'funeral', 'scrapbook', 'gift', 'present', 'graduation', 'reunion', 'project', 'portfolio', 'class', 'school', 'work', 'homework', 'assignment', 'newsletter', 'calendar', 'collage', 'holiday', 'holidays', 'valentine', 'valentines', 'baby shower', 'shower']);
/** Verbs of the picture's size, after which "3 times" is a factor. */
wordClass('sizing', ['scale', 'enlarge', 'upscale', 'magnify', 'resize', 'grow', 'blow', 'upsize', 'downscale', 'shrink', 'reduce']);
/** What a picture is used for once edited ("i want to print it"). */
wordClass('use', ['print', 'post', 'share', 'upload', 'frame', 'send', 'email', 'hang', 'gift', 'use', 'publish', 'show']);
/** Laughter and faces typed after a request ("haha", ":)"). */
wordClass('laugh', ['haha', 'hahaha', 'hehe', 'lol', 'lmao', 'xd', ':)', ':-)', ':d', ';)', '<3', ':p']);
/** Closing words of thanks after a phrase of asking ("… if possible thanks", "… asap cheers"). */
wordClass('closer', ['please', 'pls', 'plz', 'thanks', 'thx', 'ty', 'cheers']);
/** The looks a warm or cool hue is said of ("a warm orangey tone"); "make the background warm orange" may name a colour to fill with. */
const HUE_LOOKS = words('tone tones look feel vibe glow tint hue cast light lighting filter');

/** The words of a turn of phrase, rewritten or taken out, in order. */
const TURNS: readonly Rewrite[] = [
  // "… that's all i need", "is that possible?", "can you manage that?", "two things, please:",
  // "nothing drastic", "i mean every part of it": said around the requests, asking nothing more
  // (read before the words of a question or a negation in them are).
  {
    from: phrases(
      "that's|thats all [i|we] [need|want|ask|wanted] [for] [now] [thanks]",
      'that|this is all [i|we] [need|want|ask|wanted] [for] [now] [thanks]',
      'is that|this possible|doable|easy|ok|okay|alright [to] [do]',
      'would you be able to do that|this|it',
      'can|could you manage|do that|this|it',
      'two|three|several|some things [please|pls]',
      'a few|couple [of] things [please|pls]',
      'nothing [too|overly] drastic|dramatic|fancy|major|crazy|extreme',
      '[i] [mean] every part|bit|inch of it',
      '[i] [mean] [from] top to bottom [all] [of] [it]',
      '[i] [mean] all of it',
      'not just one part|bit|area|spot|section',
    ),
    at: 'whole',
    to: '',
    flag: 'aside',
  },
  // "two things, please: brighten it …": the "please" that opens the list.
  { from: phrases('please:|pls:'), at: 'start', to: '' },
  // "two things: rotate it and crop it": how many requests follow.
  { from: phrases('two|three|several|some things|things: [please|pls|please:|pls:]', 'a few|couple [of] things|things: [please|pls|please:|pls:]'), at: 'start', to: '' },
  // "… if you don't mind", "… if that's possible": how politely it is asked.
  { from: phrases("if you dont|don't mind [@closer]", 'if you do not mind [@closer]', "if that's|thats possible|ok|okay|alright [@closer]", 'if that is possible|ok|okay|alright [@closer]'), at: 'end', to: '' },
  // "one more thing: rotate it": another request announced, no amount ("one" had been read as 1).
  { from: phrases('one|1 more|last|other thing|thing:|things|things:', 'another thing|thing:'), to: 'also' },
  { from: phrases('anti|counter clock wise', 'anti|counter clockwise', 'anticlock|counterclock wise', 'anticlockwise'), to: 'counterclockwise' },
  { from: phrases('clock wise'), to: 'clockwise' },
  { from: phrases('gray scale|scaled', 'grayscaled'), to: 'grayscale' },
  { from: phrases('de noise'), to: 'denoise' },
  { from: phrases('de blur', 'deblur'), to: 'unblur' },
  // "oversaturate the colours": the verb asks for much more saturation. Said of the picture as it
  // is ("it's oversaturated") it is a fault, read before this (complaints.ts).
  { from: phrases('over saturate', 'oversaturate'), to: 'saturate strongly' },
  { from: phrases('water mark|marks|marked|marking', 'thumb nail|nails'), to: joined },
  { from: phrases('black and|&|n|n\'|+ white', 'b & w', 'b and|n|+ w', 'b&w|b/w|b+w', 'blackandwhite'), to: 'blackandwhite' },
  // "make it bw", "convert to bw": after what is made so; alone or first it may be "btw" ("bw can
  // you make it brighter").
  { from: phrases('it|this|that|to|into|in|photo|picture|image|pic|shot bw'), to: (m) => `${m[0]} blackandwhite` },
  // "a light vignette", "light grain": "light" before an effect is how much of it, not a colour
  // or more light (read as a look, it had been refused).
  // After "the" it may name what is there ("the light blur": of the lights?).
  { from: phrases('light|lite'), followedBy: words('vignette vignetting blur blurring grain noise glow sharpening sharpen sepia tint haze'), notAfter: (word) => ['the', 'this', 'that', 'its'].includes(word), to: 'slight' },
  // "make it black white": the two colours with no "and" are the look only where nothing follows
  // them ("a black white border" may be two borders' colours), nor an article goes before them
  // ("make the black white" is the black made white).
  { from: phrases('black white'), at: 'end', notAfter: (word) => ['the', 'this', 'that', 'all'].includes(word), to: 'blackandwhite' },
  { from: phrases('take|took|taking|takes|filter out', 'take|takes away', 'get rid of'), to: 'remove' },
  // "i'd like the backdrop taken away", "the black area should be taken out": the participle, removed.
  { from: phrases('taken out|away', 'gotten rid of'), to: 'removed' },
  // "cut away the backdrop": cut off and dropped ("cut out the dog" keeps the dog).
  // ("cut away the lower edge": a side cut off, a crop.)
  { from: phrases('cut|cuts away'), followedBy: phrases('[the|this|that] top|bottom|left|right|upper|lower|edge|edges|side|sides|border|borders|margin|margins'), notAfter: toldBy, to: 'cut off' },
  { from: phrases('cut|cuts away'), notAfter: toldBy, to: 'remove' },
  // "give it more of a pink tint": more of it.
  { from: phrases('more|less of a|an'), to: (m) => m[0]! },
  // "dial back the exposure", "cut back on the saturation": down, of a quality named after it ("cut back to the original size" is none).
  { from: phrases(`${[...BACKING_VERBS].join('|')} back`), followedBy: phrases(`[on] [the|its|all|some] ${[...Object.keys(NOUNS), ...Object.keys(OPPOSITES), 'color', 'colors'].join('|')}`), to: 'decrease' },
  // "fix the blur", "correct the blurry look": a fault mended is taken away (the fix is its opposite).
  {
    from: phrases([...MENDING_VERBS].join('|')),
    followedBy: phrases(`[the|this|that|all|any] ${[...FAULT_NOUNS, ...[...SYNONYMS].filter(([, word]) => FAULT_NOUNS.has(word)).map(([synonym]) => synonym)].join('|')}`, `[the|this|that] ${[...FAULT_QUALITIES].join('|')} look|appearance|effect`),
    to: 'remove',
  },
  // "making it darker" opening a request: the verb said as its gerund. After another verb it says
  // what that verb does ("warm it making it pop"), no request of its own.
  { from: phrases('making'), at: 'start', to: 'make' },
  // "change the image outline colour to black": the picture's own outline, its border.
  { from: phrases('image|photo|picture|pic outline|outlines'), followedBy: words('color to into'), to: 'border' },
  // "ad a border": a slip of "add" before what is added.
  { from: phrases('ad'), followedBy: words('a an some the more'), to: 'add' },
  // "zoom the picture out": the particle after the thing zoomed.
  { from: phrases('zoom it|this in|out', 'zoom the image|photo|picture in|out'), to: (m) => `zoom ${m.at(-1)}` },
  // "select the entire image and …": what the edit is said of, which is every edit's default.
  { from: phrases('select all|everything', 'select the entire|whole image|photo|picture', 'select [the] image|photo|picture'), to: '' },
  // "give it a warm orangey tone", "a cool bluish look": the hue says what the warmth looks like.
  { from: phrases('warm @warmhue'), followedBy: HUE_LOOKS, to: 'warm' },
  { from: phrases('cool|cold @coolhue'), followedBy: HUE_LOOKS, to: (m) => m[0]! },
  // "darken the surroundings of this picture": the picture's own surroundings are its edges (the
  // surroundings of someone in it are the background).
  { from: phrases('[the] surroundings|surrounding|outskirts of the|this|my|that picture|image|photo|pic|photograph|shot'), to: 'the edges of the picture' },
  // "the whole thing has a blue cast", "make the whole thing brighter": all of the picture.
  { from: phrases('the|this whole|entire thing'), to: 'the whole image' },
  // "brighten every part of the photo", "sharpen the full picture": all of it.
  { from: phrases(`every ${[...PART_OF_WHOLE_NOUNS].join('|')} of [the|this|my] [whole|entire] image|photo|picture|pic|shot|thing`, 'the|this full|complete image|photo|picture|pic|shot'), to: 'the whole image' },
  // "brighten every part of it", "remove every bit of the backdrop": all of what is named.
  { from: phrases(`every|each ${[...PART_OF_WHOLE_NOUNS].join('|')} of`), nextWord: (next) => next !== undefined && ['it', 'this', 'that', 'the', 'her', 'his', 'their', 'my'].includes(next), to: '' },
  // "brighten the photo all over": all over the picture just named.
  { from: phrases('image|photo|picture|pic|shot all over'), to: (m) => m[0]! },
  // "more saturated colours all over", "a bit darker all over": all over what is edited, which is all of it.
  { from: phrases('all over'), at: 'end', notAfter: (word) => !(word === 'colors' || word === 'color' || word === 'them' || word in NOUNS || QUALITY_ADJECTIVES.has(word) || (word.length > 4 && word.endsWith('er'))), to: 'throughout' },
  // "it's come out quite dark", "it's looking really dim", "her face is looking shadowy": how it is.
  { from: phrases("it's|its come|gone out", "it's|its looking"), followedBy: words([...STATE_DEGREE_WORDS, ...QUALITY_ADJECTIVES, ...FAULT_QUALITIES, 'overexposed', 'underexposed', 'washed', 'blown'].join(' ')), to: "it's" },
  { from: phrases('is|are looking'), followedBy: words([...STATE_DEGREE_WORDS, ...QUALITY_ADJECTIVES, ...FAULT_QUALITIES, 'overexposed', 'underexposed', 'washed', 'blown'].join(' ')), to: (m) => (m[0] === 'is' ? 'looks' : 'look') },
  // "this one's a touch overexposed": this picture.
  { from: phrases("this|that one's"), to: (m) => `${m[0]} is` },
  { from: phrases('this|that one is|looks|seems'), to: (m) => `${m[0]} ${m[2]}` },
  // "this is too dark overall": of all of it, which a fault of the picture is.
  { from: words('overall'), at: 'end', notAfter: (word) => !(QUALITY_ADJECTIVES.has(word) || FAULT_QUALITIES.has(word)), to: '' },
  // "brighten absolutely everything": all of it.
  { from: words('absolutely literally'), followedBy: words('everything all every'), to: '' },
  // "brighten things up", "liven things up a bit": it.
  { from: words('things'), followedBy: words('up down'), notAfter: (word) => !(REQUEST_VERBS.has(word) || ADJUSTMENT_VERBS.has(word)), to: 'it' },
  // "it came out too dark", "the photo turned out a bit blurry": what it became is how it is.
  { from: phrases(`[has|have|had] ${[...CAME_OUT_VERBS].join('|')} out`), followedBy: words([...STATE_DEGREE_WORDS, ...QUALITY_ADJECTIVES, ...FAULT_QUALITIES, 'overexposed', 'underexposed', 'washed', 'blown'].join(' ')), to: 'is' },
  // "stronger contrast", "weaker colours": more or less of the quality named (alone, "stronger" is a degree).
  { from: words(Object.keys(STRENGTH_COMPARATIVES).join(' ')), followedBy: words([...Object.keys(NOUNS), 'color', 'colors', 'tones'].join(' ')), to: (m) => STRENGTH_COMPARATIVES[m[0]!]! },
  // "add a green hue over the picture", "the blue haze over the whole photo": over all of it is in it.
  { from: phrases('[all] over [the|this|my] [whole|entire] image|photo|picture|pic|shot'), to: 'in the whole image' },
  // "make it all bigger", "blur it all": all of it is it.
  { from: phrases('it all over'), to: 'it' },
  { from: phrases('it all'), nextWord: (next) => next !== undefined && !['of', 'the', 'in', 'that', 'but', 'except'].includes(next), to: 'it' },
  { from: phrases('it all'), at: 'end', to: 'it' },
  // "zoom the pic in": the picture between the verb and its particle.
  { from: phrases('zoom the|this|my image|photo|picture|pic|shot in'), to: 'zoom in' },
  { from: phrases('zoom the|this|my image|photo|picture|pic|shot out'), to: 'zoom out' },
  // "rotate it a full 180 degrees": the whole of the number said.
  { from: phrases('a full'), nextWord: (next) => next !== undefined && next[0]! >= '0' && next[0]! <= '9', to: '' },
  // "swap every yellow for red": all of that colour.
  { from: phrases('every|each'), nextWord: (next) => next !== undefined && namedColor(next) !== undefined, to: 'all the' },
  // "is it possible to make it brighter", "how about more contrast": a request asked politely.
  // "would someone be able to make it brighter", "i'm hoping you can warm it up", "i'm after more
  // contrast": the request put politely, by a frame that asks nothing of its own (lexicon).
  { from: phrases(...REQUEST_FRAMES), at: 'start', to: '' },
  // "i'd really like it brighter", "i really need it sharper": how much it is wished, not how much
  // of the edit (read as a degree, it had been made much brighter).
  { from: phrases("i'd|id|we'd|would|i|we really|truly|so|very|just like|love|want|need|appreciate"), to: (m) => `${m[0]} ${m[2]}` },
  // "… more contrast would really help": the edit said to help is the edit asked.
  { from: phrases('would [really|definitely|also|probably] help [a] [lot|ton|bunch|loads|heaps]'), at: 'end', to: '' },
  // "zooming in a little would be great": the edit said to be wished is the edit asked ("that would be lovely" alone is a reply).
  { from: phrases('would [really|definitely|also] be [so|really|very] great|nice|lovely|amazing|awesome|perfect|ideal|brilliant|wonderful|fantastic|good|appreciated'), at: 'end', notAfter: (word) => ['it', 'that', 'this'].includes(word), to: '' },
  // "their faces all look shadowy", "they both look dark": each of them.
  { from: words('all both'), followedBy: words('look looks seem seems appear appears are'), notAfter: (word) => !['faces', 'they', 'kids', 'people', 'colors', 'eyes'].includes(word), to: '' },
  // "i'd like the backdrop softly blurred": a little.
  { from: words('softly gently lightly subtly'), followedBy: words('blurred sharpened brightened darkened lightened blur sharpen brighten darken lighten'), to: 'slightly' },
  // "he looks too dark", "she's a bit bright": the person in the picture, its subject ("they" may be
  // the colours, and is left as said).
  { from: phrases("he|she looks|is|seems|appears", "he's|she's"), at: 'start', followedBy: words([...STATE_DEGREE_WORDS, ...QUALITY_ADJECTIVES, ...FAULT_QUALITIES, 'overexposed', 'underexposed', 'washed'].join(' ')), to: (m) => `the subject ${m.length === 2 ? m[1] : 'is'}` },
  // "boost the colour saturation": the saturation, the colours' own.
  { from: phrases('color saturation|vibrance|vibrancy|intensity'), to: (m) => m[1]! },
  // "she comes across as too bright": looks.
  { from: phrases('comes|come|came across as'), to: 'looks' },
  // "the backdrop ought to be darker": should.
  { from: phrases('ought to'), to: 'should' },
  // "a purple colour wash", "washed in red": a wash of colour is a tint.
  { from: phrases('color wash|washes'), to: 'tint' },
  // "put an orange wash over it": a wash of that colour.
  { from: words('wash washes'), notAfter: (word) => namedColor(word) === undefined, nextWord: (next) => next === undefined || ['over', 'on', 'in', 'across', 'to', 'for', 'please', 'pls', 'effect', 'filter', 'and', 'throughout'].includes(next), to: 'tint' },
  { from: phrases('washed|bathed in'), nextWord: (next) => next !== undefined && namedColor(next) !== undefined, to: 'tinted' },
  // "washed with a yellowish tone": the tone is the tint ("washed" alone takes colour away).
  { from: phrases('washed|bathed with'), followedBy: phrases('[a|an|some] [_] tone|tint|hue|wash|glow|cast'), to: 'tinted with' },
  // "lighten the photo from edge to edge": all of it.
  { from: phrases('[from] edge|corner to edge|corner'), to: 'throughout' },
  // "is it sharp?", "should i make it brighter?": a question about the picture asks for no edit.
  {
    // "is every face blurred?", "is her face too dark?", "are both faces sharp?": asked of a part named with any determiner.
    from: phrases(
      'is|are|does|do|did|was|were|would|will it|this|that|i|we',
      'is|are|does|do|did|was|were|would|will the|every|each|all|any|both|her|his|their|my|your|our _',
      'should|what|why|which|who|where|when',
      // "can someone explain why it looks blurry", "tell me how to sharpen it": an explanation asked, no edit.
      '[can|could|would] [you|someone|anyone|somebody|anybody] [please] explain|tell [me|us] [why|how|what|whether|if]',
    ),
    at: 'start',
    to: '',
    flag: 'question',
  },
  // "blur what's behind her", "get rid of whatever is behind the subject", "the stuff around him":
  // all that is there, as "everything behind her" is (after the question's words: "what's behind her?" asks).
  { from: phrases("whatever|what is|'s", "what's|whats|whatevers|whatever's", '[all] [the] stuff', 'everything that is'), followedBy: words('behind around outside surrounding'), to: 'everything' },
  // "after that, darken it", "and then crop it": the order of the requests, which is the order they are said in.
  { from: phrases('after that|this|which', 'and then'), at: 'start', to: '' },
  // "blow it up", "need this blown up": enlarged (a picture blown up is printed bigger).
  { from: phrases('blow|blowing it|this|that up', 'blow|blowing the|this|my image|photo|picture|pic up'), to: (m) => `enlarge ${m.slice(1, -1).join(' ')}` },
  { from: phrases('it|this|that blown up'), to: (m) => `${m[0]} enlarged` },
  // "crop off the upper section", "the lower part": the top and the bottom, as the sides are named.
  { from: words('upper lower'), followedBy: words('part section portion area edge edges strip band'), to: (m) => (m[0] === 'upper' ? 'top' : 'bottom') },
  // "add a border all the way round the image": round it, all of it.
  { from: phrases('all the way'), followedBy: words('round around'), to: '' },
  // "my little one's face": a child of the one asking.
  { from: phrases("my|our|your|his|her|their little one|ones|one's|ones'"), to: (m) => `${m[0]} ${({ one: 'child', ones: 'children', "one's": "child's", "ones'": "children's" } as Record<string, string>)[m[2]!]}` },
  // "zoom closer", "zoom in tighter": in.
  { from: phrases('zoom [in] closer|tighter'), to: 'zoom in' },
  // "… it will lighten her up", "this'll make the colours pop": what an edit is foreseen to do,
  // told after it, not asked. Not "would" ("it would be nice to brighten it" asks politely).
  {
    from: phrases(...[...FORESEEING_LEADS, ...TOLD_EFFECT_LEADS].map((lead) => `[${FORESEEING_JOINS}] [then] ${lead}`)),
    at: 'start',
    // Kept, for a reason that states a look ("so the background will be white").
    to: (m) => m.join(' '),
    flag: 'outcome',
  },
  // "… thats all, will lighten her up": the same told with its subject left out, as notes are
  // written ("will you brighten it" asks).
  { from: phrases(`[${FORESEEING_JOINS}] [then] will`), at: 'start', nextWord: (next) => next !== undefined && !ADDRESSED_AS_SUBJECT.has(next) && !['it', 'this', 'that'].includes(next), to: (m) => m.join(' '), flag: 'outcome' },
  // "the sign says "open"", "there is a caption at the bottom", "the photo is titled …": words
  // already in the picture, said of it, are no text to add (a statement).
  {
    from: phrases(
      "the|this|that|its|it's _ [_] [_] says|reads|said|read",
      'there is|was|are a|an|some [_] caption|text|title|sign|label|word|words|writing|watermark|heading|headline|logo',
      "there's|theres a|an|some [_] caption|text|title|sign|label|word|words|writing|watermark|heading|headline|logo",
      'the|this|that image|photo|picture|pic is titled|called|named',
    ),
    at: 'start',
    to: (m) => m.join(' '),
    flag: 'aside',
  },
  // "brighten it max": all the way, at the end too.
  { from: phrases('max|maximum'), at: 'end', notAfter: (word) => ['their', 'its', 'his', 'her', 'a', 'the', 'to', 'of'].includes(word), to: 'strongly' },
  // "crop it so there's not much background": so that the subject fills it (no negation of an edit).
  {
    from: phrases(
      'so [that] there is not|no much|less|little [of] [the] background|backdrop|bg|surroundings',
      'so [that] there is no|less|little [of] [the] background|backdrop|bg|surroundings',
      "so [that] there's|theres|its|it's not much|less|little [of] [the] background|backdrop|bg|surroundings",
      "so [that] there's|theres|its|it's no|less|little [of] [the] background|backdrop|bg|surroundings",
      'so [that] less|little|none of the background|backdrop|bg shows',
    ),
    to: 'so only the subject shows',
  },
  // "remove the background so only the dog is left": what is left is what shows.
  { from: phrases('so [that] only|just _ [_] [_] is|are left|remaining'), to: (m) => [...m.slice(0, -2), 'shows'].join(' ') },
  // "can you not blur it", "not make it brighter": an edit not wanted, which no reading may take
  // as its opposite ("not blur" is not "sharpen").
  { from: phrases('can|could|would|will you|someone|anyone|somebody|anybody not'), to: '', flag: 'negated' },
  // "can someone make it brighter", "could anyone blur the faces": a forum's way to ask, as "can you" is.
  // Not "can anyone in the background be removed": there "anyone" is who is edited.
  { from: phrases('can|could|would|will someone|anyone|somebody|anybody [please|pls|plz]', 'someone|anyone|somebody|anybody please|pls|plz'), at: 'start', notFollowedBy: words('in behind on at near next here there who whose else be is are was were that with from of help'), to: '' },
  { from: phrases('not'), followedBy: words('make blur sharpen brighten darken lighten crop rotate flip change add remove turn resize use apply saturate desaturate'), to: '', flag: 'negated' },
  // "it should not be blurred", "i'd rather not have it brightened": what is wished not done, never
  // its opposite ("not blurred" had sharpened it).
  { from: phrases('not|never be|being|have|get|got'), to: '', flag: 'negated' },
  // "instead of brightening it, darken the background": the edit named is the one not wanted (read,
  // it had been done as well). ("without cropping" limits the edit beside it.)
  { from: phrases('instead|regardless of', 'rather than'), at: 'start', nextWord: (next) => next !== undefined && next.endsWith('ing') && requestVerbOf(next) !== undefined, to: '', flag: 'negated' },
  // "more contrast instead of more saturation": the quality not wanted, said after the one that is.
  { from: phrases('instead of [more|less|a|an|the|some|any] _', 'rather than [more|less|a|an|the|some|any] _'), at: 'end', to: (m) => (isQualityWord(m.at(-1)!) ? '' : m.join(' ')) },
  // "I would not like it darker", "the kids don't want the backdrop blurred": a wish said not to be
  // asks for no edit, never its opposite ("not blurred" is no sharpening then).
  {
    from: phrases('not|never like|love|want|need|prefer', "wouldn't|wouldnt|don't|dont|doesn't|doesnt|didn't|didnt|won't|wont like|love|want|need|prefer"),
    to: '',
    flag: 'negated',
  },
  // "to bright", "way to dark", "its to warm": "to" before a quality with no verb to
  // take it there is "too", a fault (read as a wish, the fault was made worse).
  { from: phrases('to'), at: 'start', followedBy: words([...QUALITY_ADJECTIVES, 'saturated', 'light'].join(' ')), to: 'too' },
  { from: phrases('way|far|much|bit|little|kinda|abit|just|its|is|are|looks|seems to'), followedBy: words([...QUALITY_ADJECTIVES, 'saturated', 'light'].join(' ')), to: (m) => `${m[0]} too` },
  // "blur the background only": the part the edit is limited to, said after it, is "just" that
  // part (as "blur just the background" reads).
  { from: phrases('[the] background|backdrop|bg|subject|foreground only'), at: 'end', to: (m) => `just ${m.slice(0, -1).join(' ')}` },
  // "put a frame round the picture": British "round" after a thing put about the picture is
  // "around" (read as the verb, the frame had become rounded corners); "round the corners" stays.
  { from: phrases('frame|frames|border|borders|outline|line|box|edge|edging round'), followedBy: words('the it this that everything'), to: (m) => `${m[0]} around` },
  // "dude sharpen it", "man its blurry", "sharpen it thanks man": the person asked, addressed,
  // is no one in the picture (read as one, a fault was made worse on "the subject").
  { from: phrases(`[hey|hi|yo|ok|okay] ${ADDRESSED.join('|')}`), at: 'start', to: '' },
  { from: phrases(`[hey|hi|yo|ok|okay] ${ADDRESSED_BEFORE_REQUEST.join('|')}`), at: 'start', followedBy: words("it its it's can could would please pls plz this i make you"), to: '' },
  { from: phrases(`thanks|thx|ty|please|pls|plz ${[...ADDRESSED, 'man'].join('|')}`), at: 'end', to: '' },
  { from: phrases([...ADDRESSED, 'man'].join('|')), at: 'end', notAfter: (word) => !ADDRESSED_AFTER.has(word), to: '' },
  // "add a double exposure": two pictures laid over each other (a composite), never the light doubled.
  { from: phrases('double|multiple exposure|exposures'), to: 'composite' },
  // "it was brighter in person", "on the face of it": idioms whose nouns name no part of the picture.
  { from: phrases('in person|reality', 'in real life', 'irl'), to: 'in life' },
  { from: phrases('on the face of it'), to: '' },
  // "i was going to brighten it but i changed my mind", "scratch that": the request taken back.
  { from: phrases('changed|change my|our mind', 'scratch|forget|cancel|ignore that|this', 'change of plan|plans', 'nevermind|nvm'), to: '', flag: 'negated' },
  // "brighten it but not too much", "sharpen it, not sharpened too much": a limit on the amount, a
  // slight one, not "too" turning the edit round. "not so bright" is less bright.
  { from: phrases('not [_] too|overly _', 'not [_] so much'), at: 'start', to: 'slightly' },
  { from: phrases('but|and not [_] too|overly _', 'but|and not [_] so much', 'not [_] too|overly|so much'), to: 'slightly' },
  // "it's not bright enough", "the photo isn't sharp enough", "the colours aren't vivid enough":
  // too little of a quality, asked as more of it ("make it more bright" reads as the adjective's
  // comparative does).
  {
    from: phrases(
      "[it|its|it's|this|that|the|this] [image|photo|picture|pic|shot] is|looks|seems|isnt|isn't|aint not|too [very|quite|really] _ enough",
      "[it|this|that|the|this] [image|photo|picture|pic|shot] isnt|isn't|aint [very|quite|really] _ enough",
      "its|it's not [very|quite|really] _ enough",
    ),
    at: 'whole',
    to: (m) => `make it more ${m[m.length - 2]}`,
  },
  {
    from: phrases("[the|its|it's] colors|colours|tones are|arent|aren't|look [not] [very|quite|really] _ enough"),
    at: 'whole',
    to: (m) => `make the colors more ${m[m.length - 2]}`,
  },
  // "not enough contrast": too little of it, a fault whose fix is more.
  { from: phrases('not enough'), to: 'too little' },
  // "the photo lacks contrast", "it is lacking warmth": it needs more of it. Colour lacking may be
  // all of it (a black and white photo to colourise): asked, as "it needs colour" is.
  { from: phrases('lacks|lacking [in]', 'is lacking [in]'), followedBy: words('color colors colour colours'), to: 'needs' },
  { from: phrases('lacks|lacking [in]', 'is lacking [in]'), to: 'needs more' },
  // "not sure if this is possible but …", "no idea if it can be done, but …": a doubt before the
  // request, no negation of it (refused as one, "not sure" had said what not to do).
  {
    from: phrases(
      'not sure if|whether this|it|that is|s possible|doable [but]',
      'not sure if|whether this|it|that can be done [but]',
      'no idea if|whether this|it|that is|s possible|doable [but]',
      'no idea if|whether this|it|that can be done [but]',
      "i don't|dont know if|whether this|it|that is|s possible|doable [but]",
    ),
    at: 'start',
    to: '',
  },
  // "not sharp", "not very sharp" opening a clause: said of the picture, with no edit; refused
  // ("not so dark", "not as bright" and "not darker" are less of it).
  { from: phrases('not'), at: 'start', nextWord: (next) => next !== undefined && !['so', 'as', 'too', 'overly'].includes(next) && !next.endsWith('er'), to: '', flag: 'negated' },
  // "it's grainy but I like it": what the person wants kept.
  { from: phrases('[but] i [really|kinda|sorta|actually|still|quite|honestly] [kind|sort] [of] like|love it|that|this|them [though|anyway]', '[but] i [really] like|love it|that|this|them a lot', '[but] kinda|sorta like|love it|that|this|them',
  // "… but now i like it", "… i like it now", "… it's grown on me": the wish taken back.
  '[but] now i [really|actually|kinda] like|love it|that|this|them', '[but] i [really|actually|kinda] like|love it|that|this|them now', "[but] it's|its|it has grown on me",
  '[but] i [really] like|love the mood|look|vibe|feel|atmosphere|effect|darkness',
  // (Only said back with "but" or "now": "it looks great" alone is praise, said.)
  "but [now] [i] [think|see] it's|its ok|okay|fine|good [now]", "now [i] [think|see] it's|its ok|okay|fine|good", "[i] [think|see] it's|its ok|okay|fine|good now",
  'but [now] [i] [think|see] it is ok|okay|fine|good [now]', 'but [now] it looks good|fine|great|ok|okay [now]', 'now it looks good|fine|great|ok|okay', 'it looks good|fine|great|ok|okay now', '[but] i [really] want to keep it|that|this|them', "[but] that's|thats|it's|its ok|okay|fine [though|anyway]", '[but] that|it|this is ok|okay|fine [though|anyway]',
  // "there's a green cast, i want it", "… i added it on purpose", "… it's intentional": the look is theirs, kept.
  '[but] i|we [really] want|need it|that|this|them', '[but] [which|that] i|we|you did|made|added|put|applied [it|that|this|them] [there|in] [myself|ourselves] [on] [purpose|deliberately|intentionally]',
  "[but] [it's|its|that's|thats|it|that|this] [is|was] [done] on purpose|intentional|deliberate|intended"), at: 'whole', to: '', flag: 'negated' },
  // "hi there", "quick request", "perfect", "love it!": greetings and replies, asides.
  {
    from: phrases(
      'hi|hello|hey|hiya [there|guys|all|everyone|team]',
      'quick|small|simple request|question|one',
      'perfect|great|awesome|amazing|wonderful|excellent|brilliant|thanks|cheers|thx|ty [thanks|thx]',
      'thank you',
      'love|loved it|this|that',
      'i love|loved it|this|that',
      // "love this pic", "i love this shot": the picture praised.
      '[i] [really] love|loved|like this|the|my pic|photo|picture|shot|image|one',
      '[much|greatly|really|very] appreciated',
      'no rush|hurry',
      'take your time',
      '[just] for fun',
      '@laugh',
      // "sorry", "that would be lovely", "thanks in advance": an apology or a reply, no edit.
      'sorry|apologies',
      '[can|could] anyone|someone|somebody|anybody|you help [me|us] [with] [that|this|it] [please|pls|plz]',
      'that|this|it would be lovely|great|amazing|awesome|perfect|brilliant|wonderful|fantastic|appreciated',
      '[and] nothing else|more [please|pls|plz]',
      'no other changes|edits|adjustments [please|pls|plz]',
    ),
    at: 'whole',
    to: '',
    flag: 'aside',
  },
  // "convert it to grayscale and nothing else": the request is all that is asked, as it is alone.
  { from: phrases('[and|but] nothing else|more', 'with no other changes|edits'), at: 'end', to: '' },
  // "… while you're at it": the request asked beside another, no edit of its own.
  { from: phrases("while|whilst you're|youre|ur at it", 'while|whilst you are at it'), at: 'end', to: '' },
  // "right now it looks a bit dull", "at the moment it's too dark": how it is before any edit.
  { from: phrases('right now', 'at the|this moment', 'at present', 'currently'), at: 'start', to: '' },
  // "… so i can post it on instagram", "… for my website", "… for a print", "… if possible": what
  // the picture is for or how politely it is asked, no edit.
  {
    from: phrases(
      'so [that] i|we can post|share|print|use|upload|frame|send|email|text it|this [on|to|in|for] [my|our|a|the] [_]',
      'for my|our|a|the|her|his|their website|site|blog|print|prints|profile|linkedin|instagram|insta|ig|facebook|fb|stories|story|wall|frame|poster|mom|dad|friend|youtube|tiktok|twitter|pinterest|wallpaper|banner|thumbnail|avatar|ebay|etsy|listing|shop|store|resume|cv|passport|id|card|flyer|invitation|presentation|slideshow|email|lockscreen|desktop [picture|pic|photo|page|channel|video|post|listing|card]',
      'for stories|printing|print|instagram|insta|ig|facebook|fb|linkedin|youtube|tiktok|twitter|pinterest|reddit|whatsapp|snapchat|discord|ebay|etsy|email|emailing',
      // One phrase each: written as one, "if possible|you can|…" had asked for "if possible can could dont mind".
      // A closing word of thanks after them is a filler ("… if possible thanks").
      'if possible [@closer]',
      'if you can|could [@closer]',
      "instead of the current|existing|old one|background|backdrop",
      "instead of what's|whats there [now]",
      'instead of what is there [now]',
      // "… thanks a lot", "… thank you very much": thanks, no degree of the edit.
      'thanks|thank|thx [you] [so|very|a] lot|much|heaps|loads|tons|bunch',
      // "… asap", "… thanks in advance", "… real quick": how soon or how kindly it is asked.
      'asap [@closer]',
      '[thanks|thank] [you] in advance',
      '[real|really] quick|quickly',
    ),
    at: 'end',
    to: '',
  },
  // The same, said after a request, but never after words to write: "add caption just for fun",
  // "add the text home for the holidays" may hold them all (cut there, the caption was "just").
  {
    from: phrases(
      // "… for my mom's birthday", "… for our wedding album", "… just for fun": an occasion it is for.
      'for my|our|a|the|her|his|their [_] [_] @occasion',
      '[just] for fun|fun',
      // "sharpen it maybe", "a tad brighter perhaps": the request hedged after it, still asked.
      'maybe|perhaps',
      // "… no rush", "… much appreciated", "… take your time": how kindly it is asked.
      'no rush|hurry',
      'take your time',
      '[much|greatly|really|very] appreciated',
      '[i|we] [really|would] appreciate it|this',
      // "… haha", "… :)": a laugh or a face, no edit.
      '@laugh',
      // "… so i can use it as a background", "… to use it as my wallpaper": the picture as a
      // background of something else, no background of its own (its background had been blurred).
      '[so] [that] [i|we] [can|could] [to] use|set it|this as a|an|my|our background|backdrop|wallpaper|screensaver|lockscreen',
      'for a|an|my|our background|backdrop|wallpaper|screensaver|lockscreen',
      'to use|set as a|an|my|our background|backdrop|wallpaper|screensaver|lockscreen',
    ),
    at: 'end',
    notAfter: (word) => word.startsWith('«'),
    to: '',
  },

  // "i'd appreciate it if you could brighten it", "would love it if you made it warmer", "i think
  // it needs more contrast": a frame of asking or of a view before the request, no edit.
  {
    from: phrases(
      "[i|we|i'd|id|we'd] [would|really|do] appreciate [it] if you|u could|can|would [please|pls|plz]",
      "[i|we|i'd|id|we'd] [would|really] love [it] if you|u could|can|would [please|pls|plz]",
      'i|we think|feel|guess|believe',
    ),
    at: 'start',
    to: '',
  },
  // "add a filter that outlines everything", "use an effect which blurs it": the filter is what it does.
  // (One that "makes" or "gives" a look is read whole, with its purpose.)
  { from: phrases('add|apply|use|put [on] a|an|the filter|effect|layer that|which'), at: 'start', nextWord: (next) => next !== undefined && !['makes', 'make', 'gives', 'give', 'will', 'would', 'can', 'could'].includes(next), to: '' },
  // "i want it grainy", "it needs to be blurred", "i'd like it to look sepia": the look wished for,
  // asked (read as said, a fault word after "it" was how the picture is, and refused).
  {
    from: phrases(
      "i|we [really|just] want|wanted|need it|this|them [to] [be|look]",
      "i|we would|d like it|this [to] [be|look]",
      "i'd|id|we'd like it|this [to] [be|look]",
      'it|this needs|need to be|look',
    ),
    at: 'start',
    // "i want it for my wall", "i want this picture brighter": a purpose, or the picture named, follows.
    nextWord: (next) => next !== undefined && !['for', 'to', 'as', 'like', 'done', 'fixed', 'edited', 'changed'].includes(next) && !WHOLE_IMAGE.has(next),
    to: 'make it',
  },
  // "my mum wants it for a frame", "she needs it for her wall" (the purpose taken out above):
  // someone wanting the picture, an aside ("i want it brighter" asks).
  { from: phrases('[my|our|his|her|their|the] @wanter [really|just|also] want|wants|wanted|need|needs|needed it|this|them|one'), at: 'whole', to: (m) => m.join(' '), flag: 'aside' },
  // "i want to print it", "we're going to frame it": what the picture is for, an aside.
  {
    from: phrases(
      "[i|we] [really|just|also] want|need|wanna|plan|hope to @use it|this|them",
      "[i|we|i'm|im|we're|were] [am|are] going|gonna [to] @use it|this|them",
    ),
    at: 'whole',
    to: (m) => m.join(' '),
    flag: 'aside',
  },
  // "too dark, i can't see anything", "you can barely see her": what the fault beside it does, an aside.
  {
    from: phrases(
      "i|you|we can't|cant|cannot|couldn't|couldnt [even] see [anything|it|much|them|him|her|details]",
      "i|you|we can't|cant|cannot|couldn't|couldnt [even] see the|her|his|their _",
      // ("barely" is "slightly" by now.)
      'i|you|we can slightly|hardly|not see [anything|it|much|them|him|her|details]',
      'i|you|we can slightly|hardly|not see the|her|his|their _',
    ),
    at: 'whole',
    to: (m) => m.join(' '),
    flag: 'aside',
  },
  // "this photo is from our trip", "it was taken indoors": where the photo comes from, an aside.
  { from: phrases('this|the|that photo|picture|pic|image|shot is|was from|of', 'it|this was taken|shot|made|snapped'), at: 'start', to: (m) => m.join(' '), flag: 'aside' },
  // "thanks for sharpening it", "thank you so much for the warm edit": thanks for what was done.
  { from: phrases('thanks|thank|thx|ty [you] [so|very] [much] for'), at: 'start', to: (m) => m.join(' '), flag: 'aside' },
  // "cool!", "cool cool", "looking sharp": a remark, no cooling nor sharpening.
  { from: phrases('cool [cool] [cool]', 'looking|looks good|great|sharp|nice|cool|awesome|amazing'), at: 'whole', to: '', flag: 'aside' },
  // "mirror selfie", "flipped selfie": the kind of photo it is, no mirroring.
  { from: phrases('mirror|mirrored|flipped selfie|selfies'), to: 'selfie' },
  // "contrast na", "border n/a", "brightness same", "saturation as is": a form's answer that a
  // quality is to stay, never that edit.
  { from: phrases('_ na|n/a|same|unchanged|none|nil', '_ as is|was', '_ no change|changes'), at: 'whole', to: (m) => m.join(' '), flag: 'aside' },
  // "i like the grain", "nice vignette", "it has a lovely glow": a look praised is one to keep,
  // never one to add ("i like it brighter", "add a nice vignette" ask). Said with a verb of being
  // ("the grain is nice"), text.ts finds it.
  { from: phrases(`[but|and] i|we [really|do|just] ${PRAISING_VERBS}`), at: 'start', followedBy: phrases('the|this|that|these|those|its|how|her|his|their|all'), to: (m) => m.join(' '), flag: 'aside' },
  { from: phrases(`[really|very|so] ${PRAISING} _ [_]`, `it|this|that has|got a|an|some [really|very|so] ${PRAISING} _ [_]`), at: 'whole', to: (m) => m.join(' '), flag: 'aside' },
  // "cool pic, make it brighter": the picture praised ("cool" is no cooling said of a picture so).
  { from: phrases(`[really|very|so] cool|great|good|${PRAISING} pic|pics|photo|photos|picture|shot|image|one [of] [_] [_] [_]`), at: 'whole', to: (m) => m.join(' '), flag: 'aside' },
  // "to make it pop, crop to square", "for a pop of colour, add a border": a purpose said first is
  // why the request after it is made, no look of its own.
  { from: phrases('to make|give|get it|this|everything', 'so [that] it|this looks|look|pops|pop', 'for a|an'), at: 'start', to: (m) => m.join(' '), flag: 'aside' },
  // "thanks it looks brighter": thanks, and how it is now.
  { from: phrases('thanks|thank|thx|ty [you] it|this|that'), at: 'start', to: (m) => m.join(' '), flag: 'aside' },
  // "not very bright": a little less bright, not "strongly". Said of the picture ("it's not very
  // sharp") it is a statement, which is not acted on.
  { from: phrases('not very'), notAfter: (word) => ['is', 'looks', 'seems', 'appears', 'its'].includes(word) || word.endsWith("'s"), to: 'slightly less' },
  // "warmer but not orange": a limit no edit can be checked against, not "less orange"; asked about.
  { from: phrases('but not'), notFollowedBy: words('so as'), to: '', flag: 'negated' },
  // "half as big": the size said as a share of it ("50% as big", as "twice as big" is read).
  { from: phrases('half'), followedBy: phrases('as big|large'), to: '50%' },
  // "half as saturated": to half of what it is, not more of it.
  { from: phrases('half as'), followedBy: phrases('_'), to: 'to 50%' },
  // "warmer instead of cooler", "a warmer picture as opposed to cooler": the comparative set
  // against is what is not wanted, said to make the way clear.
  { from: phrases('instead of _', 'rather than _', 'as opposed to _'), at: 'end', to: (m) => (m.at(-1)!.endsWith('er') ? '' : m.join(' ')) },
  // "sepia instead of colour": what the picture is now, said to make the change clear.
  { from: phrases('instead of [in|being] [full] color|colored|colors'), to: '' },
  // "remove the blue haze": a coloured haze over the whole picture is a colour cast.
  { from: phrases(`${castColorForms()} haze|veil`), to: (m) => `${castColorOf(m[0]!)} cast` },
  // "then you're going to add some contrast": how the steps are told, not what they are.
  {
    from: phrases("you're|youre|we're|were|i'm going|gonna to", 'you|we|i are|am going|gonna to', "you're|youre|we're|were gonna", 'you|we are gonna', "you'll|youll|we'll"),
    to: '',
  },
  // "darken the whole photo and the background", "… including the background": the photo holds its background.
  { from: phrases('[the|this] [whole|entire] image|photo|picture|pic and|&|including|incl [the|its] background|backdrop'), to: (m) => m.slice(0, m.findIndex((w) => PHOTO_AND.has(w))).join(' ') },
  // "make every colour more vivid": all of them.
  { from: phrases('every|each color'), to: 'all the colors' },
  // "from a coloured image to black and white": the colour it has now.
  { from: phrases('from [a|the] color|colored|colorful image|photo|picture|one|version to'), to: 'from color to' },
  // "use the contrast tool to raise the contrast": the tool named is how, the rest is what.
  { from: phrases('use|using [the|a] _ [_] tool|slider|option|setting|adjustment to|and'), at: 'start', followedBy: phrases('_'), to: '' },
  // "bump the contrast with the contrast tool", "make it less green with a colour filter": the tool
  // or filter named after the edit is how, no edit of its own.
  { from: phrases('with|using|via [the|a|an] [_] [_] tool|slider|option|setting|adjustment', 'with|using|via a|an|the [color|photo] filter|effect'), at: 'end', to: '' },
  // "take out that yellowish cast": the cast said, not a thing pointed at.
  { from: phrases('that|this'), followedBy: phrases('_ tint|cast|hue|glow|haze|wash'), to: 'the' },
  // "add a filter that makes the colours pop": the filter is how; what it makes is the edit.
  {
    from: phrases(
      `${FILTER_ON} that|which|to make|makes|give|gives`,
      `${FILTER_ON} making|giving`,
    ),
    notAfter: toldBy,
    to: (m) => (m.at(-1)!.startsWith('mak') ? 'make' : 'give'),
  },
  // "add a filter so it looks darker", "put a filter on the photo so it comes out lighter": the
  // filter is how; the look it ends in is the edit.
  { from: phrases(`${FILTER_ON} so [that] it|this looks|look`), notAfter: toldBy, to: 'make it look' },
  { from: phrases(`${FILTER_ON} so [that] it|this comes|turns|becomes|gets [out]`, `${FILTER_ON} so [that] its|it's`, `${FILTER_ON} so [that] it|this is`), notAfter: toldBy, to: 'make it' },
  // "filter the photo darker", "filter photo to black and white": "filter" as a verb with the
  // picture and the look it ends in says how that look is made.
  { from: words('filter filtered'), at: 'start', followedBy: phrases('[the|this|my] image|photo|picture|pic|it _'), to: 'make' },
  // "add a filter to add contrast", "use a filter that reduces the red": the filter is how; the verb after it is the edit.
  { from: phrases(`${FILTER_ON} to|that|which`), nextWord: (next) => next !== undefined && isFilterVerb(next), notAfter: toldBy, to: '' },
  // "take the colour out", "take all of the backdrop away", "get all the red out": the thing between the verb and its particle.
  { from: phrases('take [all] [of] [the] _ [_] out|away', 'get [all] [of] [the] _ [_] out'), to: (m) => `remove ${m.slice(1, -1).join(' ')}` },
];

/** "reddish", "yellowdish": the forms of a cast's colour. */
function castColorForms(): string {
  return CAST_COLORS.flatMap((color) => [color, `${color}ish`, `${color}dish`]).join('|');
}
const castColorOf = (word: string) => CAST_COLORS.find((color) => word.startsWith(color)) ?? word;

/** Words before an adjective that make it the look asked for, not a degree ("more dramatic", "a dramatic look"). */
const STYLE_LEADS: ReadonlySet<string> = new Set(['more', 'less', 'so', 'too', 'very', 'a', 'the', 'quite', 'pretty', 'really', 'look', 'looks', 'it', 'and']);

/** Objects after which a person named ends the request as the one addressed ("brighten it man"; "remove man" is a man removed). */
const ADDRESSED_AFTER: ReadonlySet<string> = new Set(['it', 'them', 'up', 'out', 'down']);

/** "brighten it (hit by accident)", "mistake": a remark about a slip at either end of a clause, not an edit. */
function withoutSlips(tokens: string[]): string[] {
  const bare = (word: string) => {
    let end = word.length;
    while (end > 0 && ':!,-'.includes(word[end - 1]!)) end--;
    return word.slice(0, end);
  };
  let start = 0;
  while (start < tokens.length - 1 && SLIPS.has(bare(tokens[start]!))) start++;
  let end = tokens.length;
  for (;;) {
    if (end <= start + 1 || !SLIPS.has(tokens[end - 1]!)) break;
    let at = end - 1;
    if (tokens[at - 1] === 'by') at--;
    if (tokens[at - 1] === 'this' || tokens[at - 1] === 'it') {
      if (SLIP_VERBS.has(tokens[at - 2] ?? '')) at -= 2;
    } else if (SLIP_VERBS.has(tokens[at - 1] ?? '')) at--;
    end = at;
  }
  const kept = tokens.slice(start, end);
  // "oops rotated it 90", "rotated 3 degrees by accident": with the slip said, a verb in the past
  // tells what was done, never a request to do it again: read as told ("i rotated it 90").
  const slipSaid = start > 0 || end < tokens.length;
  const first = kept[0] ?? '';
  return slipSaid && TOLD_VERB_ENDINGS.some((ending) => first.endsWith(ending)) && first.length > 4 && !SLIP_VERBS.has(first) ? ['i', ...kept] : kept;
}
const TOLD_VERB_ENDINGS = ['ed'];

/** "make it brighter too", "sharpen it as well": "too" at the end is "also". */
function withoutTooAtEnd(tokens: string[]): string[] {
  let end = tokens.length;
  while (end > 0 && POLITE_END.has(tokens[end - 1]!)) end--;
  if (tokens[end - 1] === 'you' && tokens[end - 2] === 'thank') end -= 2;
  const drop = tokens[end - 1] === 'too' ? 1 : tokens[end - 1] === 'well' && tokens[end - 2] === 'as' ? 2 : 0;
  return drop > 0 && end - drop > 0 ? [...tokens.slice(0, end - drop), ...tokens.slice(end)] : tokens;
}

// --- Numbers --------------------------------------------------------------------------------

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
export const isNumberWord = (word: string | undefined) => word !== undefined && (word in UNITS || word in TENS || word === 'hundred' || word === 'thousand');

/** Words after which "one" is a pronoun ("this one", "the one on the left", "just one"). */
const ONE_DETERMINERS: ReadonlySet<string> = new Set(['this', 'that', 'the', 'which', 'each', 'every', 'any', 'no', 'a', 'an', 'just', 'only', 'other', 'another', 'same']);

/**
 * "one hundred eighty" → 180, "forty-five" → 45, "a hundred" → 100; said in spoken groups, "one
 * eighty" → 180, "nineteen twenty" → 1920, "nine zero" → 90 (a group that cannot be added to the
 * one before follows it, as its digits would).
 */
function numberWords(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    const aHundred = tokens[i] === 'a' && (tokens[i + 1] === 'hundred' || tokens[i + 1] === 'thousand');
    // "this one", "that one ninety": "one" after a determiner stands for a thing, no number.
    const pronoun = tokens[i] === 'one' && ONE_DETERMINERS.has(out.at(-1) ?? '');
    if ((!isNumberWord(tokens[i]) && !aHundred) || pronoun) {
      out.push(tokens[i++]!);
      continue;
    }
    let total = 0;
    let current = aHundred ? 1 : 0;
    // What the last word was: a unit adds to a ten ("twenty one"); anything else after a unit or a
    // teen, or a ten after a ten, starts the next group of digits.
    let last: 'start' | 'unit' | 'teen' | 'ten' = 'start';
    if (aHundred) i++;
    for (; isNumberWord(tokens[i]); i++) {
      const token = tokens[i]!;
      if (token in UNITS || token in TENS) {
        const value = UNITS[token] ?? TENS[token]!;
        const kind = token in TENS ? 'ten' : value < 10 ? 'unit' : 'teen';
        // "eighty ninety": a range, two numbers (never one made of both).
        if (last === 'ten' && kind === 'ten') break;
        const adds = last === 'start' || (last === 'ten' && kind === 'unit');
        current = adds ? current + value : current * (kind === 'unit' ? 10 : 100) + value;
        last = kind;
      } else if (token === 'hundred') {
        current = (current || 1) * 100;
        last = 'start';
      } else {
        total += (current || 1) * 1000;
        current = 0;
        last = 'start';
      }
    }
    out.push(String(total + current));
  }
  return out;
}

/** "3rd" → 3. */
function ordinal(word: string): string {
  const ending = word.slice(-2);
  const digits = word.slice(0, -2);
  return ['st', 'nd', 'rd', 'th'].includes(ending) && digits !== '' && [...digits].every((ch) => ch >= '0' && ch <= '9') ? digits : word;
}

const FRACTIONS: readonly Rewrite[] = [
  // Number words are digits by now ("one third" is "1 third").
  { from: phrases('[by] a|1 half', 'half'), to: '50%' },
  { from: phrases('3 quarter|quarters', '3-quarter|3-quarters'), to: '75%' },
  { from: phrases('a|1 quarter', 'quarter'), to: '25%' },
  { from: phrases('2 third|thirds', '2-third|2-thirds'), to: '66.667%' },
  // A bare "third" is also a step ("third, add a border"): only of a side or with its article.
  { from: phrases('a|1 third'), to: '33.333%' },
  { from: phrases('top|bottom|left|right third'), to: (m) => `${m[0]} 33.333%` },
  { from: phrases('third'), followedBy: words('of'), to: '33.333%' },
  // "scale it up 3 times", "enlarge it twice": after a verb of size, a count is the factor ("3x").
  {
    from: phrases('@sizing [it|this|that|the|image|photo|picture|pic] [up|down] 2|3|4|5|6|8|10 times', '@sizing [it|this|that|the|image|photo|picture|pic] [up|down] twice'),
    to: (m) => [...m.slice(0, m.at(-1) === 'twice' ? -1 : -2), m.at(-1) === 'twice' ? '2x' : `${m.at(-2)}x`].join(' '),
  },
  // "make it x4", "resize by a factor of 0.5": a factor written before its number.
  { from: phrases('x2|x3|x4|x5|x6|x8|x10'), to: (m) => `${m[0]!.slice(1)}x` },
  { from: phrases('[by] a factor of _'), to: (m) => (m.at(-1)![0]! >= '0' && m.at(-1)![0]! <= '9' ? `by ${m.at(-1)}x` : m.join(' ')) },
  // "blow it up", "blow up the photo": made bigger (read as a slip of "glow", it had glowed).
  { from: phrases('blow|blew [it|this|that] up'), to: (m) => (m.length === 3 ? `enlarge ${m[1]}` : 'enlarge') },
  // "brighten it twice", "darken it 3 times": said last, a count of times the edit is done, which
  // is no factor ("twice as bright" is); how much that comes to is asked.
  { from: phrases('twice', '2|3|4|5|6 times'), at: 'end', to: 'repeatedly' },
  { from: phrases('twice', '2|3|4|5|6 times'), followedBy: words([...POLITE_END].join(' ')), to: 'repeatedly' },
  // "halve the size", "halve it": the verb of a half; of the picture alone, its size.
  { from: phrases('halve|halved the|its size|dimensions|resolution'), to: '50% the size' },
  { from: phrases('halve|halved it|this|that [image|photo|picture|pic]', 'halve|halved the image|photo|picture|pic'), at: 'whole', to: '50% the size' },
  { from: words('double doubled twice'), to: '2x' },
  { from: words('triple tripled thrice'), to: '3x' },
  { from: words('quadruple quadrupled'), to: '4x' },
  // "50% as bright", "a quarter as saturated": to that share of what it is, as "half as" is (a
  // size said so, "50% as big", is read by the size's reading).
  { from: phrases('_ as', '_ percent|pct as'), nextWord: (next) => next !== undefined && !SIZE_AS.has(next), to: (m) => (isShare(m) ? `to ${m[0]!.replace('%', '')}%` : m.join(' ')) },
];

/** Sizes said against another's ("50% as big"): the size's own reading takes them. */
const SIZE_AS: ReadonlySet<string> = new Set('big large wide tall high small long short narrow'.split(' '));
/** Whether matched words open with a share: "50%", "25%", or a number before "percent". */
const isShare = (m: readonly string[]) => {
  const digits = m[0]!.endsWith('%') ? m[0]!.slice(0, -1) : m.length === 3 ? m[0]! : '';
  return digits !== '' && [...digits].every((ch) => (ch >= '0' && ch <= '9') || ch === '.');
};

const INTENSIFIERS = 'very|really|super|extremely|just';
const MANNER_LEADS: ReadonlySet<string> = new Set('the a an same this that either no any one other each every which some'.split(' '));

/** Degree words, in one form each: "slightly" and "strongly". */
const LEVELS: readonly Rewrite[] = [
  // "max blur", "as much as possible": all the way, of an adjustment (not "max 1200px").
  { from: phrases('max|maximum'), followedBy: words('blur contrast brightness saturation sharpness warmth vibrance'), to: 'strongly' },
  { from: phrases('as much as possible', 'as much as you can', 'to the max|maximum'), to: 'strongly' },
  // "as dark as you can", "as bright as possible", "as sharp as it gets": the quality all the way,
  // read as "as much as possible" is (never the default degree, the rest read as fillers); "as
  // little as possible" is the least of it.
  { from: phrases('as little as possible', 'as little as you|it|we|they can|could [be]', 'as little as can be'), to: 'slightly' },
  {
    from: phrases('as _ as possible', 'as _ as you|it|we|they can|could [be|get|go]', 'as _ as can be', 'as _ as it|they gets|goes|get|go'),
    to: (matched) => `${matched[1]} strongly`,
  },
  // "quite a bit darker", "quite a lot more contrast": a good deal, not a little.
  { from: phrases('quite a bit|lot', 'a good|great deal', 'by far'), to: 'strongly' },
  // "very little sharpening", "very very slightly": very little, not very much.
  { from: phrases(`${INTENSIFIERS} [${INTENSIFIERS}]* little|tiny`), notFollowedBy: words('bit'), to: 'slightly' },
  { from: phrases(`${INTENSIFIERS} [${INTENSIFIERS}]*`, 'ever so'), followedBy: phrases('slight|slightly|little|tiny|subtle|subtly|gently|mildly', 'a little|tiny|bit|touch|tad'), to: '' },
  // "add a touch of warmth": a small amount of what follows.
  { from: phrases('a touch|hint|tad|smidge|dash|bit of'), to: 'slightly' },
  {
    from: phrases('[a] little|tiny|wee bit', 'a little|touch|tad|smidge|hint|bit', 'slight|slightly|somewhat|subtle|subtly|gently|gentle|mild|mildly|lightly|marginally|minor|barely|minimally|faintly'),
    to: 'slightly',
  },
  // "kinda brighter", "sort of warmer": casually, a little; "a kind of vintage look" names a kind.
  { from: phrases('kinda|sorta|kinda-sorta', 'kind|sort of'), notAfter: (word) => MANNER_LEADS.has(word) || word === 'what', to: 'slightly' },
  { from: phrases('soft|softly'), followedBy: words('blur blurred vignette sharpen sharpened'), to: 'slightly' },
  { from: phrases('a [whole] lot'), to: 'strongly' },
  // "too much contrast", "way too much yellow": more of it than wanted, a fault whose fix is less.
  { from: phrases('too much|many'), to: 'too high' },
  // "the contrast is too strong", "the colours are too intense": more of the quality than wanted, as "too high".
  { from: phrases('too strong|intense|overpowering'), to: 'too high' },
  { from: words('heavy'), notAfter: (word) => word === 'too', to: 'strongly' },
  {
    from: words('lots loads tons heaps much very really heavily heavier strong strongly stronger significantly greatly dramatically extreme extremely massive massively intense intensely considerably hugely super seriously substantially drastically tremendously enormously radically incredibly immensely vastly'),
    to: 'strongly',
  },
  // "brighten it dramatic" is a lot; "make the lighting more dramatic", "a dramatic look" is a
  // style (of light and shade), no degree of the light: left as said (and not read).
  { from: words('dramatic'), notAfter: (word) => STYLE_LEADS.has(word), to: 'strongly' },
  // "way brighter", "way too dark": a lot; "the same way", "that way", "either way" name a manner, no degree.
  { from: words('way'), notAfter: (word) => MANNER_LEADS.has(word), to: 'strongly' },
  // "noticeably warmer", "moderately darker": the usual step, said outright.
  { from: words('moderately noticeably visibly'), to: '' },
  // "shrink it to like 320 by 240", "about 20px", "roughly 1000 wide": a number said roughly is
  // that number (read as a comparison after the edit, "like 320 by 240" had been passed over).
  { from: words('like about around roughly approximately approx circa'), nextWord: (word) => word !== undefined && word[0]! >= '0' && word[0]! <= '9', to: '' },
  { from: words('far'), followedBy: words('too more less'), to: 'strongly' },
];

const LIGHT_WORDS = new Set(['brighten', 'brightened', 'brighter', 'bright', 'lighten', 'lightened', 'lighter', 'darken', 'darkened', 'darker', 'dark']);
const WHOLE_COLORS = phrases(
  "entire|whole image|photo|picture|pic|image's|photo's|picture's|pic's color|colors",
  'color|colors of [the] entire|whole image|photo|picture|pic',
);

/**
 * "make the entire image colours brighter": said of light, the whole picture's colours are the
 * whole picture (colours alone, "make the colours brighter", are about their vividness). Said of
 * anything else they are the colours: "intensify the whole image's colours" is not "enlarge it".
 */
function wholePictureColors(tokens: string[]): string[] {
  const light = tokens.some((word) => LIGHT_WORDS.has(word));
  return rewrite(tokens, [
    {
      from: WHOLE_COLORS,
      to: (m) => {
        if (!light) return 'colors';
        const at = m.findIndex((word) => word === 'entire' || word === 'whole');
        const noun = m[at + 1]!;
        return `${m[at]} ${noun.endsWith("'s") ? noun.slice(0, -2) : noun}`;
      },
    },
  ]);
}

/** Words that make "cool" a colour's: said of colours or tones it is cooler ("make the colours look cool", "a cool tone"). */
const COOL_OF_COLOR = new Set(['color', 'colors', 'tone', 'tones', 'toned', 'hue', 'hues', 'tint', 'temperature', 'shade', 'shades', 'palette', 'light', 'lighting', 'cast']);
/** Nouns of a style that "cool" praises ("a cool look", "a cool vibe"). */
const STYLE_NOUNS = new Set(['look', 'vibe', 'style', 'effect', 'feel']);

/**
 * "make it look cool", "give it a cool look": cool as praise (how good), not a colder picture,
 * unless colours or tones are what it is said of. Rewritten "nice", which names no edit.
 */
function slangCool(tokens: string[]): string[] {
  if (tokens.some((word) => COOL_OF_COLOR.has(word) || COOL_HUES.has(word) || WARM_HUES.has(word))) return tokens;
  return tokens.map((word, i) => {
    if (word !== 'cool') return word;
    const before = tokens[i - 1] ?? '';
    const after = tokens[i + 1] ?? '';
    return ['look', 'looks', 'looking', 'seem', 'seems'].includes(before) || (STYLE_NOUNS.has(after) && ['a', 'some', 'really', 'very', 'super'].includes(before)) ? 'nice' : word;
  });
}

/** The flags a clause's words set. */
export interface SpelledFlags {
  negated: boolean;
  question: boolean;
  outcome: boolean;
  /** The clause is context or a remark: what is in the picture ("the sign says …"), thanks, praise, a quality kept. */
  aside: boolean;
}

/** A clause (lower case) in one spelling, with the flags its words set. */

/**
 * "turn up the guy's brightness", "make the people's colours more saturated": a quality said as
 * the subject's or the faces' own is that quality of the region, said as the readings know it
 * ("the brightness of the guy").
 */
function possessedQualities(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens[i]!;
    // ("the kids' colours": the plural's possessive.)
    const owner = word.endsWith("'s") ? word.slice(0, -2) : word.endsWith("s'") ? word.slice(0, -1) : undefined;
    const region = owner === undefined ? undefined : regionOf(owner);
    const quality = tokens[i + 1];
    if (owner === undefined || (region !== 'subject' && region !== 'face') || quality === undefined || (NOUNS[quality] === undefined && quality !== 'color' && quality !== 'colors') || OWN_QUALITIES.has(quality)) {
      out.push(word);
      continue;
    }
    const determiner = POSSESSOR_DETERMINERS.has(out.at(-1) ?? '') ? out.pop()! : 'the';
    out.push('the', quality, 'of', determiner, owner);
    i++;
  }
  return out;
}

/** Past this many words, what comes before "needs" is more than the thing needing it. */
const MAX_NEEDING_WORDS = 6;

/**
 * "the colours need correcting", "the white balance on this photo needs adjusting", "the colours
 * need to be corrected", "the white balance should be corrected": a thing said to need a request verb's -ing form, or "to be" and its -ed
 * form, is that verb's object, read as the request ("correct the colours …"), so that every verb
 * reads the same however the request is put. What comes before "needs" must be a thing (no verb of
 * its own, a few words at most).
 */
function neededDone(tokens: string[]): string[] {
  const at = tokens.findIndex((word, i) => (NEED_VERBS.has(word) || OBLIGING_MODALS.has(word)) && i > 0 && i <= MAX_NEEDING_WORDS);
  if (at < 0) return tokens;
  // "needs correcting"; "needs to be corrected", "should be corrected", "has to be corrected".
  const be = tokens[at + 1] === 'be' ? at + 1 : tokens[at + 1] === 'to' && tokens[at + 2] === 'be' ? at + 2 : undefined;
  // "the yellow cast needs to go", "the text has to go": what is to go is removed.
  const goes = tokens.length === at + 3 && tokens[at + 1] === 'to' && tokens[at + 2] === 'go';
  if (goes && !tokens.slice(0, at).some((word) => REQUEST_VERBS.has(word) || MODALS.has(word))) return ['remove', ...tokens.slice(0, at)];
  if (be === undefined && !NEED_VERBS.has(tokens[at]!)) return tokens;
  const form = tokens[(be ?? at) + 1] ?? '';
  const verb = form.endsWith(be === undefined ? 'ing' : 'ed') ? requestVerbOf(form) : undefined;
  const thing = tokens.slice(0, at);
  if (verb === undefined || thing.some((word) => REQUEST_VERBS.has(word) || MODALS.has(word))) return tokens;
  return [verb, ...thing, ...tokens.slice((be ?? at) + 2)];
}


/**
 * "can this be converted to black and white?", "could the entire picture be faded out a little",
 * "can the colour be switched to blue": a request asked in the passive is the active request
 * ("convert this to black and white"), the thing before "be" its object.
 */
function askedDone(tokens: string[]): string[] {
  if (!REQUESTING_MODALS.has(tokens[0] ?? '') || ADDRESSED_AS_SUBJECT.has(tokens[1] ?? '')) return tokens;
  const be = tokens.indexOf('be');
  if (be < 2 || be > MAX_NEEDING_WORDS + 1) return tokens;
  const form = tokens[be + 1] ?? '';
  const verb = form.endsWith('ed') ? (requestVerbOf(form) ?? inflectedVerb(form)) : undefined;
  const thing = tokens.slice(1, be);
  if (verb === undefined || thing.some((word) => REQUEST_VERBS.has(word) || MODALS.has(word))) return tokens;
  return [verb, ...thing, ...tokens.slice(be + 2)];
}

/**
 * "i want the colour removed", "i'd like the exposure raised", "we need the background blurred":
 * a thing wished to have a request verb done to it (its -ed form after the thing) is that verb's
 * object, read as the request ("remove the colour"), as "needs to be removed" is (neededDone).
 * Only the one asking wishes so; the thing is a few words with no verb of its own.
 */
function wishedDone(tokens: string[]): string[] {
  const wish = wishAt(tokens);
  if (wish < 0) return tokens;
  const doneAs = (word: string) => IRREGULAR_DONE[word] ?? (word.endsWith('ed') ? (requestVerbOf(word) ?? inflectedVerb(word)) : undefined);
  const at = tokens.findIndex((word, i) => i > wish + 1 && i <= wish + 1 + MAX_NEEDING_WORDS && doneAs(word) !== undefined);
  if (at < 0) return tokens;
  const thing = tokens.slice(wish + 1, at);
  // ("i need a blurred version": the form before its noun describes it.)
  if (thing[0] === 'to' || ONE_DETERMINERS.has(thing.at(-1)!) || POSSESSOR_DETERMINERS.has(thing.at(-1)!) || thing.some((word) => REQUEST_VERBS.has(word) || MODALS.has(word) || requestVerbOf(word) !== undefined)) return tokens;
  // "i'd like the background toned down", "… zoomed in a bit": the verb's particle stays with it.
  const particle = PARTICLES.has(tokens[at + 1] ?? '') ? [tokens[at + 1]!] : [];
  return [...tokens.slice(0, wish), doneAs(tokens[at]!)!, ...particle, ...thing, ...tokens.slice(at + 1 + particle.length)];
}

/** A quality's noun or adjective ("saturation", "brighter"), never a colour ("white instead of black" swaps them). */
const isQualityWord = (word: string): boolean => word in NOUNS || word in OPPOSITES || word in DIRECTED;


/**
 * "this is quite a dark shot", "it's a blurry photo": the picture named with its fault is that
 * fault said of it ("it is quite dark"); a describing word that is no fault ("a nice shot") stays.
 */
function faultyPictureNamed(tokens: string[]): string[] {
  let at = tokens[0] === "it's" || tokens[0] === "this's" ? 1 : (tokens[0] === 'it' || tokens[0] === 'this') && tokens[1] === 'is' ? 2 : 0;
  if (at === 0) return tokens;
  const degrees: string[] = [];
  const degree = () => {
    while (STATE_DEGREE_WORDS.has(tokens[at] ?? '') && tokens[at] !== 'a') degrees.push(tokens[at++]!);
  };
  degree();
  if (tokens[at] !== 'a' && tokens[at] !== 'an') return tokens;
  at++;
  degree();
  const fault = tokens[at] ?? '';
  if (!FAULT_QUALITIES.has(fault) || !PICTURE_NOUNS.has(tokens[at + 1] ?? '') || at + 2 !== tokens.length) return tokens;
  return ['it', 'is', ...degrees, fault];
}

/**
 * "brighten it instead of sharpening it", "i'd like it brightened instead of sharpened": the edit
 * after "instead of" or "rather than" is the one not wanted, and goes with the rest of the clause
 * (read, both had been made). A colour there is the one replaced ("make it white instead of black").
 */
function insteadOfDone(tokens: string[]): string[] {
  const at = tokens.findIndex((word, i) => i > 0 && ((word === 'instead' && tokens[i + 1] === 'of') || (word === 'rather' && tokens[i + 1] === 'than')));
  if (at < 0) return tokens;
  const form = tokens[at + 2] ?? '';
  const done = (form.endsWith('ing') || form.endsWith('ed')) && (requestVerbOf(form) ?? inflectedVerb(form)) !== undefined;
  return done || REQUEST_VERBS.has(form) ? tokens.slice(0, at) : tokens;
}


/** Where the verb of a wish is, after the one asking ("i want", "i'd like"), or -1. */
function wishAt(tokens: readonly string[]): number {
  const wish = tokens.findIndex((word) => WISHED_DONE_VERBS.has(word));
  if (wish < 0 || !tokens.slice(0, wish).every((word) => WISHERS.has(word))) return -1;
  // "i like it cropped like that" praises; "i'd like it cropped" wishes.
  return FOND_VERBS.has(tokens[wish]!) && !WOULD_FORMS.has(tokens[wish - 1] ?? '') ? -1 : wish;
}


/**
 * "i want the contrast increased and the saturation reduced": a clause of a thing and a request
 * verb's -ed form after a clause that wishes is wished too, and is returned with the wish (alone,
 * "the saturation reduced" tells an edit done, and was passed over).
 */
export function wishCarriedOn(before: string, clause: string): string | undefined {
  const said = wordsOf(before.toLowerCase());
  const wish = wishAt(said);
  if (wish < 1) return undefined;
  const words = wordsOf(clause.toLowerCase());
  let start = 0;
  while (start < words.length - 1 && CARRYING_ON.has(words[start]!)) start++;
  // Only a thing named with its determiner ("the saturation", "her face"), never someone told to
  // have done something ("… and my mom cropped it").
  if (!CARRIED_THING_LEADS.has(words[start] ?? '') || words.some((word) => TELLING_DOERS.has(word) || OBJECT_PRONOUNS.has(word))) return undefined;
  const wished = [...said.slice(0, wish + 1), ...words.slice(start)];
  return wishedDone(wished) === wished ? undefined : wished.join(' ');
}

export function spell(text: string): { text: string; flags: SpelledFlags } {
  const set = new Set<string>();
  // "colour", "grey": inside any word ("colourful", "greyish").
  const british = text.split('colour').join('color').split('grey').join('gray');
  let tokens = wordsOf(british).flatMap((word) => (word.includes('-') && word.split('-').every(isLetters) ? word.split('-') : [word])).map((word, at, all) => spelled(word, at, all)).flatMap((word) => RUN_TOGETHER[word]?.split(' ') ?? [word]);
  tokens = withoutSlips(tokens);
  tokens = neededDone(askedDone(possessedQualities(faultyPictureNamed(tokens))));
  tokens = slangCool(tokens);
  tokens = rewrite(tokens, TURNS, set);
  tokens = wishedDone(insteadOfDone(tokens));
  tokens = withoutTooAtEnd(tokens);
  tokens = wholePictureColors(tokens);
  tokens = numberWords(tokens).map(ordinal);
  tokens = rewrite(tokens, FRACTIONS);
  tokens = rewrite(tokens, LEVELS);
  return { text: tokens.join(' '), flags: { negated: set.has('negated'), question: set.has('question'), outcome: set.has('outcome'), aside: set.has('aside') } };
}
