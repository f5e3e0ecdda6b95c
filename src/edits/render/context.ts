import type { Sharp } from 'sharp';
import type { SoftMask } from '../masks/segmenter.ts';
import type { Region } from '../operations/operation.ts';
import type { EditOperation } from '../plan.ts';
import type { PassOptions, RawImage } from './raw-image.ts';

export interface RenderContext extends PassOptions {
  loadImage(fileId: string): Promise<Buffer>;
  maxPixels: number;
  /**
   * A region's soft mask in the source, at its full upright size (src/edits/masks/); absent when
   * the server locates no regions. Rejects with RegionNotFoundError when the region is not there.
   */
  mask?(region: Region, at?: MaskAt): Promise<SoftMask>;
  /**
   * The caller's own mask (the OpenAI form's `mask`), at the source's upright size: every step
   * without a region of its own is confined by it, as a region step by its region's mask.
   */
  confineTo?: SoftMask;
  /**
   * The steps already done to the image this render starts from (a later part of a plan with a
   * generative step), and during a render those done before the current step: a region step
   * after one that moved pixels finds its mask in the image as it is then.
   */
  stepsBefore?: readonly EditOperation[];
}

/**
 * The image as it is at a region step that comes after pixels moved (a crop, a rotation, a
 * generative step): its mask is found in it, not in the source. `key` names that image (the source
 * is named by the caller): a hash of the steps before, or of the pixels when a step before was
 * not deterministic. `image` encodes it, only when the mask is not cached.
 */
export interface MaskAt {
  key: string;
  image(): Promise<Buffer>;
}

export interface Size {
  width: number;
  height: number;
}

type Op<O extends EditOperation['op']> = Extract<EditOperation, { op: O }>;

/**
 * An operation on decoded pixels, in a pass (or several) of its own. It owns its input and may
 * change it in place: the executor never reads an image again once it has handed it on.
 */
export type Handler<O extends EditOperation['op']> = (image: RawImage, op: Op<O>, ctx: RenderContext) => Promise<RawImage>;
export type Handlers<O extends EditOperation['op']> = { [K in O]: Handler<K> };

/**
 * An operation that is exactly one sharp call on an image of the given size. Besides running in
 * a pass of its own, it can share the pass that decodes the source or the one that encodes the
 * result, since sharp has nothing else to reorder it against there.
 */
export type Stage<O extends EditOperation['op']> = (pipe: Sharp, op: Op<O>, size: Size, ctx: RenderContext) => Sharp;
export type Stages<O extends EditOperation['op']> = { [K in O]: Stage<K> };
