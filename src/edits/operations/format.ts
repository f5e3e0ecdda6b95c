import { Type } from 'typebox';
import { color, COLOR, operation, outputFormat } from './operation.ts';

/**
 * The output file: its format and metadata (read when it is encoded, wherever they stand in the
 * prompt), and its transparency.
 */
export const FORMAT = [
  operation('format', {
    group: 'format',
    encoding: true,
    params: { format: outputFormat },
    catalogue: {
      summary: 'Convert to png, jpeg, webp, avif, gif or tiff (default: the source format).',
      parameters: { format: 'png | jpeg | webp | avif | gif | tiff' },
      examples: ['convert to webp', 'save as png', 'export as a jpeg at quality 80'],
      keywords: ['convert', 'format', 'png', 'jpeg', 'jpg', 'webp', 'avif', 'gif', 'tiff', 'save', 'export'],
    },
  }),
  /** 1–100. */
  operation('quality', {
    group: 'format',
    encoding: true,
    params: { quality: Type.Integer({ minimum: 1, maximum: 100 }) },
    catalogue: {
      summary: 'Encoder quality for lossy formats.',
      parameters: { quality: '1–100' },
      examples: ['quality 80', 'high quality'],
      keywords: ['quality'],
    },
  }),
  /** Smaller file at similar looks: stronger compression for the output format. */
  operation('compress', {
    group: 'format',
    encoding: true,
    catalogue: {
      summary: 'A smaller file at similar looks (stronger compression).',
      parameters: {},
      examples: ['make the file smaller', 'compress it', 'lower the quality', 'optimize for the web'],
      keywords: ['compress', 'smaller', 'file', 'optimize', 'size', 'lighter'],
    },
  }),
  operation('strip_metadata', {
    group: 'format',
    encoding: true,
    catalogue: {
      summary: 'No EXIF, GPS or XMP in the result (always the case; stated for clarity).',
      parameters: {},
      examples: ['strip the metadata', 'remove the GPS data'],
      keywords: ['metadata', 'exif', 'gps', 'location', 'strip'],
    },
  }),
  operation('keep_metadata', {
    group: 'format',
    encoding: true,
    catalogue: {
      summary: 'Embed the sRGB colour profile in the result. EXIF and GPS are never carried over.',
      parameters: {},
      examples: ['keep the metadata', 'preserve exif'],
      keywords: ['keep', 'preserve', 'metadata', 'exif'],
    },
  }),
  /** Replaces transparency with the colour. */
  operation('flatten', {
    group: 'format',
    params: { background: color },
    catalogue: {
      summary: 'Replace transparency with a colour (white unless given).',
      parameters: { background: COLOR },
      examples: ['flatten onto white', 'remove the transparency', 'fill the transparent background with black'],
      keywords: ['flatten', 'transparency', 'opaque', 'background'],
    },
  }),
  /** Makes pixels close to the colour transparent (default: the colour of the corners). */
  operation('transparent_color', {
    group: 'format',
    params: { color: Type.Optional(color), tolerance: Type.Number({ minimum: 0, maximum: 255 }) },
    strength: { param: 'tolerance', steps: { slight: 10, normal: 24, strong: 60 } },
    catalogue: {
      summary: 'Make one named colour transparent, e.g. a uniform green-screen background. Removing a background that is not one plain colour needs a selection, which this server does not make.',
      parameters: { color: COLOR, tolerance: '0–255' },
      examples: ['make the white background transparent', 'make green transparent', 'make #00ff00 transparent'],
      keywords: ['transparent', 'background', 'remove', 'chroma', 'key', 'cutout'],
    },
  }),
] as const;
