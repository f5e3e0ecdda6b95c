/**
 * Why a prompt was refused, as the API says it (`error.reason` of a 422). Its own module, with no
 * imports, so the error catalogue (src/errors.ts) can name the reasons without loading the planner.
 */
/**
 * Why a prompt is refused, as a program can act on it:
 * - `missing_parameter`: an operation named without what it needs ("crop the image");
 * - `question`: the clause asks something ("is it sharp?");
 * - `statement`: the clause says how the picture is, not what to change ("the photo is warm");
 * - `negation`: the clause says what not to do or to keep ("don't rotate it");
 * - `ambiguous`: it could mean two different edits, or asks for opposite ones;
 * - `limit`: the prompt is past a planning limit (clauses, words, operations, provider calls), or an amount past what one edit does ("four stops brighter");
 * - `needs_region`: a classic edit of the background, the subject or the faces, which must first be located;
 * - `needs_model`: it changes the content of the picture, or a part no region model finds: a generative model's work;
 * - `not_understood`: nothing maps to it.
 */
export const REFUSAL_REASONS = ['missing_parameter', 'question', 'statement', 'negation', 'ambiguous', 'limit', 'needs_region', 'needs_model', 'not_understood'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
