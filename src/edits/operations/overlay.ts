import { Type } from 'typebox';
import { color, COLOR, length, operation, position, POSITION } from './operation.ts';

/** Overlays: text or another image drawn on top. */
export const OVERLAYS = [
  /** size is the text height (in % of the image's height, or pixels); opacity 0–1. */
  operation('text', {
    group: 'overlay',
    params: { text: Type.String({ minLength: 1, maxLength: 500 }), position, color, size: length, opacity: Type.Number({ minimum: 0, maximum: 1 }) },
    catalogue: {
      summary: 'Write quoted text on the image: a caption (bottom), title (top) or watermark (bottom-right, half opaque).',
      parameters: { text: 'the words, in quotes', position: POSITION, color: COLOR, size: '% of the image height or px; small, big, huge', opacity: '0–100%' },
      examples: ['add the caption "Summer 2024"', 'write "SALE" at the top in big red letters', 'add a watermark "© Tessera" in the bottom-right corner at 40% opacity'],
      keywords: ['text', 'caption', 'write', 'title', 'watermark', 'label', 'words', 'say'],
    },
    questions: [
      {
        slot: 'text',
        needs: 'the words to write',
        examples: ['add the text "Summer 2026" at the top', 'add the caption "Hello"'],
        words: ['text', 'caption', 'title', 'words', 'add', 'insert', 'write', 'top', 'bottom', 'left', 'right', 'corner', 'under', 'below', 'above', 'underneath'],
        requires: ['text', 'caption', 'title', 'words'],
      },
    ],
    // A caption is white, at the bottom, 7% of the picture's height; a title is at the top; a
    // watermark (a signature, a stamp) half opaque in the bottom-right corner.
    reading: {
      needs: ['quoted'],
      accepts: ['kind', 'position', 'color', 'opacity', 'size'],
      defaults: { position: 'bottom', color: { r: 255, g: 255, b: 255, alpha: 1 }, size: { value: 7, unit: '%' }, opacity: 1 },
      kinds: { watermark: { position: 'bottom-right', opacity: 0.5 }, title: { position: 'top' } },
    },
  }),
  /** Another stored image of the same account; scale is its width as a fraction of the image's. */
  operation('watermark', {
    group: 'overlay',
    params: { fileId: Type.String({ pattern: '^file_[0-9A-Z]{26}$' }), position, opacity: Type.Number({ minimum: 0, maximum: 1 }), scale: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) },
    catalogue: {
      summary: 'Place another image of yours (by its file ID) on top, e.g. a logo.',
      parameters: { fileId: 'file_…', position: POSITION, scale: 'its width as % of the image (default 20%)', opacity: '0–100%' },
      examples: ['add file_01JC0000000000000000000000 as a logo in the bottom-right corner', 'watermark with file_01JC0000000000000000000000 at 50% opacity'],
      keywords: ['logo', 'watermark', 'overlay', 'stamp', 'file'],
    },
    // A logo is a fifth of the picture's width, opaque, in the bottom-right corner; a watermark half opaque.
    reading: { needs: ['file'], accepts: ['kind', 'position', 'size', 'opacity'], defaults: { position: 'bottom-right', scale: 0.2, opacity: 1 }, kinds: { watermark: { opacity: 0.5 } } },
  }),
] as const;
