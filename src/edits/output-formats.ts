/**
 * The formats a caller may ask an edit's result in (`output_format` of the JSON route and of the
 * OpenAI form, the CLI's `--format`). A prompt may also keep or name GIF and TIFF
 * (`outputFormat` in operations/operation.ts); these four are the ones every client can decode.
 * A leaf module: the CLI reads it without loading the edit engine.
 */
export const REQUESTABLE_OUTPUT_FORMATS = ['png', 'jpeg', 'webp', 'avif'] as const;
export type RequestableOutputFormat = (typeof REQUESTABLE_OUTPUT_FORMATS)[number];
