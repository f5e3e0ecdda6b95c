/**
 * The generative step, for GET /v1/images/operations: listed only when a provider is configured,
 * since without one such clauses are refused. Every example plans to a generate step (tested).
 */
export const GENERATIVE_CATALOGUE_ENTRY = {
  op: 'generate',
  group: 'generative',
  summary: 'Add, remove or replace content, or change one object or region, with the configured generative model: one provider call each, counted against the daily budget.',
  parameters: { instruction: 'the clause as written' },
  examples: ['remove the people in the background', 'replace the sky with a sunset', 'put a hat on the dog'],
} as const;
