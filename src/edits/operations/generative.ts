import { Type } from 'typebox';
import { inRegion, operation } from './operation.ts';

/** The longest instruction a generate step carries (the planner joins clauses up to it). */
export const MAX_INSTRUCTION_CHARS = 1000;

/** Generative steps (only with a provider configured; see src/edits/generative/). */
export const GENERATIVE = [
  /**
   * New pixels from a generative model, for a clause that edits content ("remove the people in
   * the background"): the instruction is that clause as written. provider and model are filled
   * in when the step is planned for a configured provider, so answers and lineage say who made it.
   * Listed in the catalogue only when a provider is configured, since without one such clauses
   * are refused.
   */
  operation('generate', {
    group: 'generative',
    // With a region, the provider gets its mask and only the region's pixels change (executor.ts).
    params: { instruction: Type.String({ minLength: 1, maxLength: MAX_INSTRUCTION_CHARS }), ...inRegion },
    filledIn: { provider: Type.Optional(Type.String()), model: Type.Optional(Type.String()) },
    catalogue: {
      summary:
        'Add, remove or replace content, or change one object or region, with the configured generative model: one provider call each, counted against the daily budget.',
      parameters: { instruction: 'the clause as written' },
      examples: ['remove the people in the background', 'replace the sky with a sunset', 'put a hat on the dog'],
      keywords: [],
    },
  }),
] as const;
