import { useMemo, useState } from 'preact/hooks';
import { TesseraError, describeError, type ConsoleApi, type EditResult, type FileRecord, type OperationInfo, type Space } from '../api.ts';
import { applySuggestion, describeStep, suggestionsFor } from '../format.ts';
import { AlertIcon, EyeIcon, WandIcon } from './icons.tsx';

/** What a refused edit's `reason` (docs/api.md) means, in a few words. */
const REFUSAL_LABELS: Record<string, string> = {
  missing_parameter: 'Something is missing',
  question: 'That is a question',
  statement: 'That describes the picture',
  negation: 'That says what not to do',
  ambiguous: 'That could mean two things',
  limit: 'Too long',
  needs_region: 'Needs a region located',
  needs_model: 'Needs a generative model',
  not_understood: 'Not understood',
  content_policy: "Refused by the provider's policy",
};

type Status =
  | { kind: 'idle' }
  | { kind: 'planning' }
  | { kind: 'planned'; plan: EditResult }
  | { kind: 'applying'; plan?: EditResult }
  | { kind: 'failed'; message: string; reason?: string; clause?: string; suggestions: string[] };

interface Props {
  api: ConsoleApi;
  file: FileRecord;
  spaces: Space[];
  catalogue: OperationInfo[];
  onApplied(result: EditResult): void;
}

const FORMATS = ['png', 'jpeg', 'webp', 'avif'] as const;

export function EditPanel({ api, file, spaces, catalogue, onApplied }: Props) {
  const [prompt, setPrompt] = useState('');
  const [spaceId, setSpaceId] = useState(file.workspaceId);
  const [format, setFormat] = useState<(typeof FORMATS)[number] | ''>('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const suggestions = useMemo(() => suggestionsFor(prompt, catalogue), [prompt, catalogue]);
  const busy = status.kind === 'planning' || status.kind === 'applying';

  const request = (dryRun: boolean) => ({ prompt: prompt.trim(), file_id: file.fileId, workspace_id: spaceId, ...(format ? { output_format: format } : {}), dry_run: dryRun });

  const fail = (error: unknown) => {
    const details = error instanceof TesseraError ? error.details : {};
    setStatus({
      kind: 'failed',
      // The API's pointer to its catalogue is for programs; here the suggestions are buttons.
      message: describeError(error).replace(/\s*GET \/v1\/images\/operations lists them all\.?/, ''),
      reason: typeof details.reason === 'string' ? (REFUSAL_LABELS[details.reason] ?? details.reason) : undefined,
      clause: typeof details.clause === 'string' ? details.clause : undefined,
      suggestions: Array.isArray(details.suggestions) ? (details.suggestions as Array<{ example?: unknown }>).flatMap((s) => (typeof s.example === 'string' ? [s.example] : [])) : [],
    });
  };

  const preview = async () => {
    if (!prompt.trim() || busy) return;
    setStatus({ kind: 'planning' });
    try {
      setStatus({ kind: 'planned', plan: await api.edit(request(true)) });
    } catch (error) {
      fail(error);
    }
  };

  const apply = async () => {
    if (!prompt.trim() || busy) return;
    setStatus({ kind: 'applying', plan: status.kind === 'planned' ? status.plan : undefined });
    try {
      const result = await api.edit(request(false));
      setStatus({ kind: 'idle' });
      onApplied(result);
    } catch (error) {
      fail(error);
    }
  };

  const change = (next: string) => {
    setPrompt(next);
    // A plan shown for other words would be a lie: it goes as soon as the words change.
    if (status.kind === 'planned' || status.kind === 'failed') setStatus({ kind: 'idle' });
  };

  const plan = status.kind === 'planned' || status.kind === 'applying' ? status.plan : undefined;
  const failed = status.kind === 'failed' ? status : undefined;

  return (
    <form
      class="edit-panel"
      onSubmit={(e) => {
        e.preventDefault();
        void (plan ? apply() : preview());
      }}
      aria-labelledby="edit-title"
    >
      <h3 id="edit-title">
        <WandIcon /> Edit with a prompt
      </h3>
      <label class="field">
        <span class="sr-only">What should change?</span>
        <textarea
          name="prompt"
          rows={3}
          maxLength={4000}
          placeholder="e.g. rotate 90 degrees, make it black and white and add a red 10px border"
          value={prompt}
          onInput={(e) => change((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void apply();
            } else if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void (plan ? apply() : preview());
            }
          }}
          aria-invalid={failed ? 'true' : 'false'}
          aria-describedby={failed ? 'edit-error' : 'edit-hint'}
        />
      </label>
      {failed ? (
        <div class="form-error" id="edit-error" role="alert">
          <p>
            <AlertIcon size={16} /> {failed.reason && <strong class="refusal-reason">{failed.reason}: </strong>}
            {failed.message}
          </p>
          {failed.suggestions.length > 0 && <Chips label="Did you mean" items={failed.suggestions} onPick={(s) => change(failed.clause && prompt.includes(failed.clause) ? prompt.replace(failed.clause, s) : applySuggestion(prompt, s))} />}
        </div>
      ) : (
        suggestions.length > 0 && <Chips label={prompt.trim() ? 'Suggestions' : 'Try'} items={suggestions} onPick={(s) => change(applySuggestion(prompt, s))} />
      )}
      <div class="edit-options">
        <label class="field inline">
          <span>Save to</span>
          <select value={spaceId} onChange={(e) => setSpaceId((e.target as HTMLSelectElement).value)}>
            {spaces.map((space) => (
              <option key={space.id} value={space.id}>
                {space.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field inline">
          <span>Format</span>
          <select value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value as typeof format)}>
            <option value="">as the prompt says</option>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      {plan && <PlanSteps plan={plan} catalogue={catalogue} />}
      <div class="actions">
        <button class="button" type="button" onClick={() => void preview()} disabled={!prompt.trim() || busy}>
          <EyeIcon /> {status.kind === 'planning' ? 'Planning…' : 'Preview plan'}
        </button>
        <button class="button primary" type="button" onClick={() => void apply()} disabled={!prompt.trim() || busy}>
          <WandIcon /> {status.kind === 'applying' ? 'Applying…' : 'Apply'}
        </button>
      </div>
      <p class="hint" id="edit-hint">
        Enter previews the plan, then applies it. The original is never changed: the result is a new file.
      </p>
    </form>
  );
}

function Chips({ label, items, onPick }: { label: string; items: string[]; onPick(item: string): void }) {
  return (
    <div class="chips" role="group" aria-label={label}>
      <span class="chips-label">{label}:</span>
      {items.map((item) => (
        <button key={item} class="chip" type="button" onClick={() => onPick(item)}>
          {item}
        </button>
      ))}
    </div>
  );
}

export function PlanSteps({ plan, catalogue }: { plan: Pick<EditResult, 'operations'> & Partial<EditResult>; catalogue: OperationInfo[] }) {
  return (
    <div class="plan">
      <h4>
        {plan.dry_run === false ? 'Applied' : 'The server will apply'} {plan.operations.length === 1 ? 'one step' : `${plan.operations.length} steps`}
        {plan.name ? (
          <>
            {' '}
            → <span class="mono">{plan.name}</span>
          </>
        ) : null}
      </h4>
      <ol class="steps">
        {plan.operations.map((step, index) => {
          const { title, summary, parameters, generative } = describeStep(step, catalogue);
          return (
            <li key={index} class={generative ? 'step step-generative' : 'step'}>
              <span class="step-number">{index + 1}</span>
              <div>
                <strong>{title}</strong>
                {generative && <span class="badge">generative</span>}
                {parameters.length > 0 && (
                  <span class="step-params">
                    {parameters.map((p) => (
                      <span key={p.name} class="param">
                        {p.name} {p.swatch && <i class="swatch" style={{ background: p.swatch }} />}
                        <b>{p.text}</b>
                      </span>
                    ))}
                  </span>
                )}
                {summary && <small>{summary}</small>}
              </div>
            </li>
          );
        })}
      </ol>
      {plan.dry_run === true && plan.regions_unchecked && plan.regions_unchecked.length > 0 && (
        <p class="plan-note" role="note">
          Not looked for yet: {listOf(plan.regions_unchecked.map((region) => REGION_NAMES[region]))}. A preview runs no model, so if the image has
          none, applying is refused (region not found) and nothing is stored.
        </p>
      )}
    </div>
  );
}

/** How the plan view names a region of `regions_unchecked`. */
const REGION_NAMES: Record<NonNullable<EditResult['regions_unchecked']>[number], string> = { background: 'the background', subject: 'the subject', face: 'faces' };
const listOf = (items: string[]): string => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? ''));
