import type { Group } from './operations/operation.ts';
import { CLASSIC_OPERATIONS, OPERATIONS, type OperationName } from './operations/registry.ts';

/**
 * What the engine can do, for people: served by GET /v1/images/operations, used for the
 * suggestions of a prompt that was not understood, and every example is planned in the tests.
 * Each entry is its operation's registry entry (operations/), in the registry's order.
 */
export interface CatalogueEntry {
  op: OperationName;
  group: Exclude<Group, 'generative'>;
  summary: string;
  parameters: Record<string, string>;
  examples: string[];
  /** Words that point at this operation, for suggestions. */
  keywords: string[];
}

/** The classic operations (done by the built-in engine), with their keywords. */
export const OPERATION_CATALOGUE: readonly CatalogueEntry[] = CLASSIC_OPERATIONS.map(({ name, group, catalogue }) => ({ op: name, group, ...catalogue }));

/** One operation as GET /v1/images/operations lists it. */
export interface ServedEntry {
  op: string;
  group: Group;
  summary: string;
  parameters: Record<string, string>;
  examples: string[];
}

/** The catalogue as served: the generative step only when a provider is configured, since without one such clauses are refused. */
export function servedCatalogue(options: { generative: boolean }): ServedEntry[] {
  return (options.generative ? OPERATIONS : CLASSIC_OPERATIONS).map(({ name, group, catalogue: { summary, parameters, examples } }) => ({ op: name, group, summary, parameters, examples }));
}

/**
 * The catalogue as a Markdown table for people: one row per operation with its group, what it
 * does and how to ask for it (its examples, each planned in the tests). docs/image-edits.md holds
 * it between `<!-- operations:start -->` and `<!-- operations:end -->`; a test checks it is this.
 */
export function operationsTable(): string {
  const rows = OPERATION_CATALOGUE.map(({ op, group, summary, examples }) => `| \`${op}\` | ${group} | ${summary} | ${examples.map((example) => `\`${example}\``).join(', ')} |`);
  return ['| operation | group | what it does | ask for it like this |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
