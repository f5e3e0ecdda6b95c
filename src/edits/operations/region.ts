import { Type } from 'typebox';
import { color, COLOR, operation } from './operation.ts';

const L = Type.Literal;

/**
 * Edits that exist only for a located region (src/edits/masks/): each names its region, found in
 * the picture as it is at that step (the source's mask until a step moves pixels). The classic
 * adjustments and filters that make sense in a region take an optional `region` instead
 * (`inRegion` in operation.ts).
 */
export const REGION = [
  /** The subject kept, everything behind it transparent: the output moves to a format with alpha. */
  operation('remove_background', {
    group: 'region',
    params: { region: L('background') },
    idempotent: true,
    catalogue: {
      summary: 'Remove the background: the subject kept, everything behind it transparent (the output becomes PNG unless WebP, AVIF or TIFF is asked for, and the answer says so).',
      parameters: { region: 'background' },
      examples: ['remove the background', 'cut out the subject'],
      keywords: ['remove', 'background', 'cutout', 'transparent', 'isolate'],
    },
  }),
  /** A plain colour over a region (the background unless another is named). */
  operation('fill', {
    group: 'region',
    params: { region: Type.Union([L('background'), L('subject'), L('face')]), color },
    catalogue: {
      summary: 'Fill a region with a plain colour, e.g. a white background.',
      parameters: { region: 'background (usually), subject or face', color: COLOR },
      examples: ['make the background white', 'change the background to light blue'],
      keywords: ['background', 'fill', 'solid', 'plain', 'color'],
    },
  }),
  /** Skin smoothed, edges kept (a bilateral-like filter), on the faces only. */
  operation('smooth', {
    group: 'region',
    params: { region: L('face'), strength: Type.Number({ exclusiveMinimum: 0, maximum: 1 }) },
    strength: { param: 'strength', steps: { slight: 0.3, normal: 0.6, strong: 1 } },
    catalogue: {
      summary: 'Smooth the skin of the faces, keeping edges (eyes, mouth, outline) sharp.',
      parameters: { region: 'face', strength: '0–1 (slightly 0.3, default 0.6)' },
      examples: ['smooth her skin', 'smooth the skin on the faces'],
      keywords: ['smooth', 'skin', 'retouch', 'complexion', 'soften'],
    },
  }),
  /** The box round the region, grown by margin (a share of the box on each side), kept inside the picture. */
  operation('crop_to_region', {
    group: 'region',
    params: { region: Type.Union([L('subject'), L('face')]), margin: Type.Number({ minimum: 0, maximum: 2 }) },
    catalogue: {
      summary: 'Crop to the subject or the faces: the box round them with a margin.',
      parameters: { region: 'subject or face', margin: 'a share of the box added on each side, 0–2 (default 0.1)' },
      examples: ['crop to the person', 'zoom in on her face'],
      keywords: ['crop', 'zoom', 'subject', 'person', 'face'],
    },
  }),
] as const;
