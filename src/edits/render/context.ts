import type { EditOperation } from '../plan.ts';
import type { PassOptions, RawImage } from './raw-image.ts';

export interface RenderContext extends PassOptions {
  loadImage(fileId: string): Promise<Buffer>;
  maxPixels: number;
}

export type Handler<O extends EditOperation['op']> = (image: RawImage, op: Extract<EditOperation, { op: O }>, ctx: RenderContext) => Promise<RawImage>;

export type Handlers<O extends EditOperation['op']> = { [K in O]: Handler<K> };
