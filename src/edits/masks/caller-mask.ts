import sharp from 'sharp';
import type { EditPlan } from '../plan.ts';
import { ENCODING_OPERATIONS, MASKABLE, regionOfStep } from '../operations/registry.ts';
import { ImageError, inspectImage } from '../render/index.ts';
import { inSlices, SLICE_PIXELS, toRaw } from '../render/raw-image.ts';
import type { SoftMask } from './segmenter.ts';

/**
 * The caller's own mask (the OpenAI Images form's `mask`): an image with alpha, of the image's
 * size, fully transparent where the edit may change pixels. As a SoftMask the weight of the edit
 * is 255 − its alpha, so soft edges blend and opaque pixels stay the source's, bit for bit.
 */

/** Why a mask is not usable (400 `invalid_request`, param `mask`): said in the caller's terms. */
export class CallerMaskError extends Error {}

/** Decodes the mask (upright, as the renderer decodes a source); at most maxPixels pixels. */
export async function readCallerMask(bytes: Buffer, maxPixels: number): Promise<SoftMask> {
  let hasAlpha: boolean;
  try {
    ({ hasAlpha } = await inspectImage(bytes, maxPixels));
  } catch (error) {
    if (error instanceof ImageError) throw new CallerMaskError(error.kind === 'too_many_pixels' ? `the mask ${error.message.replace(/^the image /, '')} (TESSERA_EDIT_MAX_PIXELS)` : 'the mask is not a readable image');
    throw error;
  }
  if (!hasAlpha) throw new CallerMaskError('the mask has no alpha channel: send a PNG of the image\'s size, fully transparent where the image may change and opaque where it must stay');
  let decoded;
  try {
    decoded = await toRaw(sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }).autoOrient());
  } catch (error) {
    throw new CallerMaskError(`the mask could not be decoded (${(error as Error).message.split('\n')[0]})`);
  }
  const { data, width, height, channels } = decoded;
  const weight = Buffer.alloc(width * height, 255);
  if (channels === 4) {
    await inSlices(width * height, SLICE_PIXELS, (start, end) => {
      for (let p = start; p < end; p++) weight[p] = 255 - data[p * 4 + 3]!;
    });
  }
  return { width, height, alpha: weight };
}

/** The size of an image as the renderer sees it (after EXIF orientation); undefined when it is not one (its edit says so). */
export async function uprightSizeOf(bytes: Buffer, maxPixels: number): Promise<{ width: number; height: number } | undefined> {
  try {
    return (await inspectImage(bytes, maxPixels)).upright;
  } catch {
    return undefined;
  }
}

/** A step of the plan the caller's mask cannot go with, and why: a 422, nothing stored. */
export interface MaskRefusal {
  reason: 'ambiguous' | 'not_confinable';
  /** The step's clause when the plan has it (a generative step's instruction), else the step, named. */
  clause: string;
  message: string;
}

/**
 * Whether the mask can confine every step of the plan. The registry says which can: the steps whose
 * `region` is optional (a look done on the whole picture or inside a region, and generative steps).
 * Such a step that names its own region would edit two places: ambiguous. Any other step (a change
 * of size or shape, text, a logo, a region's own operation, a look no region takes) cannot be
 * confined. Encoding steps (format, quality, metadata) shape the file, not its pixels: they pass.
 */
export function maskRefusal(plan: EditPlan): MaskRefusal | undefined {
  for (const op of plan.operations) {
    if (ENCODING_OPERATIONS.has(op.op)) continue;
    const clause = op.op === 'generate' ? op.instruction : op.op;
    if (!MASKABLE.has(op.op)) {
      return { reason: 'not_confinable', clause, message: `the mask cannot confine "${op.op}": it changes the picture as a whole (its size, its shape, or what only its own region or the whole picture can take); send it without a mask, or leave it out of the prompt` };
    }
    const region = regionOfStep(op);
    if (region) {
      return { reason: 'ambiguous', clause: op.op === 'generate' ? clause : `${op.op} of the ${region}`, message: `the prompt edits the ${region} (${op.op === 'generate' ? `"${clause}"` : op.op}) and the mask marks where to edit: two different places. Send the mask without naming a region, or name the region without a mask` };
    }
  }
  return undefined;
}
