/**
 * Generative steps, for people: painted by a model rather than by the catalogue's operations, so
 * the console says by which one, and that each is a paid call. (No imports: node tests use it.)
 */
export interface StepText {
  name: string;
  text: string;
}

export function describeGenerateStep(parameters: Record<string, unknown>): { title: string; summary: string; parameters: StepText[]; generative: true } {
  const { instruction, provider, model } = parameters as { instruction?: string; provider?: string; model?: string };
  return {
    title: 'Generative edit',
    summary: 'New pixels from a generative model: one call to the provider.',
    parameters: [{ name: 'instruction', text: `“${instruction ?? ''}”` }, ...(provider ? [{ name: 'by', text: model ? `${provider} · ${model}` : provider }] : [])],
    generative: true,
  };
}

/** Who painted the generative steps of a plan ("openai · gpt-image-1"), once each. */
export function generativeProviders(steps: readonly object[]): string[] {
  const names = steps.flatMap((step) => {
    const { op, provider, model } = step as { op?: string; provider?: string; model?: string };
    return op === 'generate' && provider ? [model ? `${provider} · ${model}` : provider] : [];
  });
  return [...new Set(names)];
}
