import sharp from 'sharp';
import type { WorkLimiter } from '../limiter.ts';
import type { EditOperation, EditPlan, GenerateOperation } from '../plan.ts';
import { ImageError, inspectImage, outputFormatOf, renderEdits, type EditResult, type RenderOptions } from '../render/index.ts';
import type { SoftMask } from '../masks/segmenter.ts';
import { toRaw } from '../render/raw-image.ts';
import { blendThrough, providerMaskPng, regionMask } from '../render/region.ts';
import { ProviderError, type GenerativeProvider } from './provider.ts';

export interface GenerativeSetup {
  provider: GenerativeProvider;
  /** Caps provider calls in flight; separate from the CPU cap, since they mostly wait. */
  limiter: WorkLimiter;
  /** Longest side of the image sent to the provider. */
  maxSide: number;
  /** Scale the provider's answer to the size of the image before it was scaled down for it. */
  restoreSize: boolean;
}

export interface ExecuteOptions {
  render: RenderOptions;
  /** Caps CPU image work (sharp passes). */
  imageWork: WorkLimiter;
  generative?: GenerativeSetup;
  /** Called just before each provider call (the budget is spent by then). */
  onProviderCall?: (step: GenerateOperation) => void;
}

/** Options that shape the encoded output wherever they stand; applied in the last pass only. */
const OUTPUT_OPS = new Set<EditOperation['op']>(['format', 'quality', 'compress', 'strip_metadata', 'keep_metadata']);

export function generateSteps(plan: EditPlan): GenerateOperation[] {
  return plan.operations.filter((op): op is GenerateOperation => op.op === 'generate');
}

/**
 * Runs a plan in order. Classic operations between generate steps run as one render each
 * (under the CPU cap, handing a lossless PNG on); each generate step is one provider call
 * (under its own cap). A plan without generate steps is exactly one render, as before.
 */
export async function executePlan(source: Buffer, plan: EditPlan, options: ExecuteOptions): Promise<EditResult> {
  const steps = generateSteps(plan);
  if (steps.length === 0) return options.imageWork.run(() => renderEdits(source, plan, options.render));
  const generative = options.generative;
  if (!generative) throw new ImageError('unsupported_edit', 'this plan has a generative step and no generative provider is configured');

  const { format: sourceFormat } = await inspectImage(source, options.render.maxPixels);
  const finalFormat = outputFormatOf(plan.operations, sourceFormat);
  const outputOps = plan.operations.filter((op) => OUTPUT_OPS.has(op.op));
  let image = source;
  let ourPng = false;
  let segment: EditOperation[] = [];
  // The steps done to `image` so far: a region step after one that moved pixels finds its mask in the image as it is then.
  const done: EditOperation[] = [];
  for (const op of plan.operations) {
    if (OUTPUT_OPS.has(op.op)) continue;
    if (op.op !== 'generate') {
      segment.push(op);
      continue;
    }
    if (segment.length > 0) {
      const classic = segment;
      const render = { ...options.render, stepsBefore: [...done] };
      image = (await options.imageWork.run(() => renderEdits(image, { operations: [...classic, { op: 'format', format: 'png' }] }, render))).data;
      ourPng = true;
      done.push(...segment);
      segment = [];
    }
    image = await generate(image, ourPng, op, generative, { ...options, render: { ...options.render, stepsBefore: [...done] } });
    done.push(op);
    ourPng = false;
  }
  const last = segment;
  const render = { ...options.render, stepsBefore: done };
  return options.imageWork.run(() => renderEdits(image, { operations: [...last, ...outputOps, { op: 'format', format: finalFormat }] }, render));
}

/**
 * One provider call: the image sent as a PNG within maxSide, the answer checked before use. A step
 * about a region sends its mask too (transparent where the provider may paint), and its answer is
 * laid back over the full-size image through that mask: outside the region every pixel is the input's.
 */
async function generate(input: Buffer, ourPng: boolean, step: GenerateOperation, setup: GenerativeSetup, options: ExecuteOptions): Promise<Buffer> {
  const { maxPixels } = options.render;
  // The step's region, or else the caller's mask (the OpenAI form's), confines what the provider paints.
  const mask = step.region ? await regionMaskOf(input, step.region, options) : options.render.confineTo;
  const { upright, sent } = await options.imageWork.run(async () => {
    const { upright, format, width, height } = await inspectImage(input, maxPixels);
    // A PNG from our previous pass (upright, no metadata) that already fits goes as it is: no second encode.
    if (ourPng && format === 'png' && Math.max(width, height) <= setup.maxSide) return { upright, sent: input };
    const sent = await sharp(input, { limitInputPixels: maxPixels })
      .autoOrient()
      .resize({ width: setup.maxSide, height: setup.maxSide, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return { upright, sent };
  });
  const maskPng = mask && (await options.imageWork.run(async () => {
    const { width, height } = await sharp(sent).metadata();
    return providerMaskPng(mask, width, height);
  }));
  const answer = await setup.limiter.run(() => {
    options.onProviderCall?.(step);
    return setup.provider.edit({ image: sent, instruction: step.instruction, ...(maskPng ? { mask: maskPng } : {}) });
  });
  return options.imageWork.run(async () => {
    try {
      await inspectImage(answer, maxPixels);
      // Decoded whole once, so a body cut short is the provider's fault (503), not the caller's.
      await sharp(answer, { limitInputPixels: maxPixels, failOn: 'error' }).raw().toBuffer();
    } catch (error) {
      const reason = error instanceof ImageError ? error.message : (error as Error).message;
      throw new ProviderError('malformed', `the generative provider's answer is not a usable image: ${reason}`);
    }
    if (mask) {
      // At the input's full size, through the mask: the provider's pixels inside the region only.
      const decoded = await toRaw(sharp(input, { limitInputPixels: maxPixels }).autoOrient());
      const painted = await toRaw(sharp(answer, { limitInputPixels: maxPixels }).resize({ width: upright.width, height: upright.height, fit: 'fill' }));
      const merged = await blendThrough(decoded, painted, mask);
      return sharp(merged.data, { raw: { width: merged.width, height: merged.height, channels: merged.channels } }).png().toBuffer();
    }
    if (!setup.restoreSize) return answer;
    // Back to the size of the image before it was scaled down for the provider.
    return sharp(answer, { limitInputPixels: maxPixels }).resize({ width: upright.width, height: upright.height, fit: 'fill' }).png().toBuffer();
  });
}

/** The region's mask in the image the step starts from: the source's, or found in that image after pixels moved (see render/region.ts). */
async function regionMaskOf(input: Buffer, region: NonNullable<GenerateOperation['region']>, options: ExecuteOptions): Promise<SoftMask> {
  const { upright } = await inspectImage(input, options.render.maxPixels);
  return regionMask(region, options.render, upright, async () => {
    const decoded = await toRaw(sharp(input, { limitInputPixels: options.render.maxPixels }).autoOrient());
    return { bytes: await sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: decoded.channels } }).png({ compressionLevel: 1 }).toBuffer(), pixels: decoded.data };
  });
}
