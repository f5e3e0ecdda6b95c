import OpenAI from 'openai';
import { OPERATION_CATALOGUE } from './catalogue.ts';
import type { EditPlan } from './plan.ts';
import { planProblems, planSchema } from './plan-schema.ts';
import { PromptError, type Planner } from './planner/rule-planner.ts';

export interface ModelPlannerOptions {
  /** An OpenAI-compatible Chat Completions endpoint: OpenAI, Ollama, vLLM, llama.cpp's server. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Past it, the rule planner's answer stands. */
  timeoutMs: number;
  /** A generative provider is configured, so plans may hold generate steps. */
  generative: boolean;
  /** Told why a model's answer was not used (for the log). */
  onRejected?: (reason: string, prompt: string) => void;
  /** Told when a model's plan is used. */
  onUsed?: (prompt: string) => void;
}

/**
 * Rules first, a language model for the rest. The rule planner answers whenever it understands
 * the whole prompt (free, instant, deterministic). Only otherwise is the model asked, with a
 * timeout, to write the plan in the plan's JSON schema (structured output). Its answer runs only
 * if it is exactly a valid plan: no text around the JSON, only catalogued operations, parameters
 * in range, and generate steps only for what the rule planner itself recognises as an edit of
 * content (so no gibberish reaches a paid call). Anything else, and any failure, falls back to
 * the rule planner's answer (its 422).
 */
export class ModelPlanner implements Planner {
  private readonly rules: Planner;
  private readonly options: ModelPlannerOptions;
  readonly name = 'model';
  private readonly client: OpenAI;
  private readonly schema: ReturnType<typeof planSchema>;

  constructor(
    rules: Planner,
    options: ModelPlannerOptions,
  ) {
    this.rules = rules;
    this.options = options;
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey || 'unused', timeout: options.timeoutMs, maxRetries: 0 });
    this.schema = planSchema({ generative: options.generative });
  }

  async plan(prompt: string): Promise<EditPlan> {
    let refusal: PromptError;
    try {
      return await this.rules.plan(prompt);
    } catch (error) {
      if (!(error instanceof PromptError)) throw error;
      // A limit is the operator's bound on one request (its length, its edits, its provider
      // calls), which no other reading lifts: the model is not paid to read it again.
      if (error.reason === 'limit') throw error;
      refusal = error;
    }
    const answered = await this.ask(prompt).catch((error: unknown) => `the model did not answer (${(error as Error).message})`);
    // Checked apart from the call: a planner that cannot answer is this request's failure.
    const planned = typeof answered === 'string' ? answered : ((await this.notContent(answered)) ?? answered);
    if (typeof planned === 'string') {
      this.options.onRejected?.(planned, prompt);
      throw refusal;
    }
    this.options.onUsed?.(prompt);
    return planned;
  }

  /** The model's plan, or why it is not one. */
  private async ask(prompt: string): Promise<EditPlan | string> {
    const completion = await this.client.chat.completions.create({
      model: this.options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: this.instructions() },
        { role: 'user', content: prompt },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'edit_plan', schema: this.schema as unknown as Record<string, unknown>, strict: false } },
    });
    const content = completion.choices?.[0]?.message?.content;
    if (typeof content !== 'string') return 'the model answered no content';
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      return 'the model answered something other than bare JSON';
    }
    const problems = planProblems(value, { generative: this.options.generative });
    if (problems) return `the model's plan is invalid: ${problems}`;
    return value as EditPlan;
  }

  /** Why a model's plan may not run: a generate step for what is no edit of content (no gibberish reaches a paid call). */
  private async notContent(plan: EditPlan): Promise<string | undefined> {
    for (const op of plan.operations) {
      if (op.op === 'generate' && !(await this.isContentEdit(op.instruction))) return `the model sent "${op.instruction}" to the generative provider, which is not an edit of content`;
    }
    return undefined;
  }

  /** The rule planner's own test: the instruction plans as exactly one generative step. */
  private async isContentEdit(instruction: string): Promise<boolean> {
    try {
      const { operations } = await this.rules.plan(instruction);
      return operations.length === 1 && operations[0]!.op === 'generate';
    } catch (error) {
      // Refused: no edit of content. A planner that could not answer (its thread busy or
      // failed) says nothing of the instruction, and is the request's failure (503), not the model's.
      if (error instanceof PromptError) return false;
      throw error;
    }
  }

  async start(): Promise<void> {
    await this.rules.start?.();
  }

  async close(): Promise<void> {
    await this.rules.close?.();
  }

  private instructions(): string {
    const catalogue = OPERATION_CATALOGUE.map((e) => `- ${e.op}: ${e.summary} Parameters: ${JSON.stringify(e.parameters)}. E.g. ${e.examples.slice(0, 2).map((x) => `"${x}"`).join(', ')}`).join('\n');
    const generative = this.options.generative
      ? '- generate: {"op":"generate","instruction":"…"} for a part that adds, removes or replaces content or changes one object or region; the instruction is that part in the user\'s words.\n'
      : '';
    return [
      'You turn a request to edit an image into a plan: JSON of the form {"operations":[…]}, one object per step, in the order the user asked.',
      'Use only these operations, with the parameters the JSON schema gives (colours are {"r","g","b","alpha"}, lengths {"value","unit":"px"|"%"}):',
      'A step with a "region" parameter (background, subject or face) is done only there; give it only when the request names that region ("blur the background": {"op":"blur","sigma":3,"region":"background"}); without it the step is of the whole picture.',
      catalogue + '\n' + generative,
      'Answer with the JSON only. If a part of the request cannot be done with these operations, answer {"operations":[]}.',
    ].join('\n');
  }
}
