import type { OperationInfo, PlanStep } from './api.ts';
import { describeGenerateStep } from './generative.ts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export function formatAge(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return unit === 'second' ? 'just now' : relative.format(value, unit);
    value = Math.round(value / size);
  }
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** "PNG", "PDF", "ZIP": what a card shows for a file, from its name, else its type. */
export function typeLabel(name: string, mimeType: string): string {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1];
  if (extension) return extension.toUpperCase();
  const subtype = mimeType.split('/')[1] ?? 'file';
  return subtype.replace(/^x-/, '').split(/[.+-]/)[0]!.slice(0, 5).toUpperCase();
}

export function isImage(mimeType: string): boolean {
  return mimeType.startsWith('image/');
}

export function humanize(op: string): string {
  const words = op.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface StepParameter {
  name: string;
  text: string;
  /** A CSS colour to show as a swatch next to the text. */
  swatch?: string;
}

/** One plan step for people: its name, what the catalogue says it does, and its parameters. */
export function describeStep(step: PlanStep, catalogue: readonly OperationInfo[]): { title: string; summary: string; parameters: StepParameter[]; generative: boolean } {
  const { op, region, ...parameters } = step as { op: string; region?: unknown } & Record<string, unknown>;
  if (op === 'generate') return describeGenerateStep(region === undefined ? parameters : { ...parameters, region });
  const entry = catalogue.find((e) => e.op === op);
  return {
    // A step confined to a region says where: "Blur, the background only".
    title: typeof region === 'string' ? `${humanize(op)}, the ${region} only` : humanize(op),
    summary: entry?.summary ?? '',
    parameters: Object.entries(parameters).map(([name, value]) => ({ name: humanize(name).toLowerCase(), ...describeValue(value) })),
    generative: false,
  };
}

function describeValue(value: unknown): { text: string; swatch?: string } {
  if (isColor(value)) {
    if (value.alpha === 0) return { text: 'transparent', swatch: 'transparent' };
    const hex = `#${[value.r, value.g, value.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    const css = value.alpha === 1 ? hex : `rgba(${value.r}, ${value.g}, ${value.b}, ${value.alpha})`;
    return { text: value.alpha === 1 ? hex : `${hex} at ${Math.round(value.alpha * 100)}%`, swatch: css };
  }
  if (isLength(value)) return { text: `${value.value}${value.unit === 'px' ? ' px' : value.unit}` };
  if (Array.isArray(value)) return { text: value.every((v) => typeof v === 'number') && value.length === 2 ? `${value[0]}:${value[1]}` : value.map((v) => describeValue(v).text).join(', ') };
  if (typeof value === 'number') return { text: String(Math.round(value * 1000) / 1000) };
  if (typeof value === 'string') return { text: value.replace(/_/g, ' ') };
  if (typeof value === 'boolean') return { text: value ? 'yes' : 'no' };
  if (value && typeof value === 'object') {
    return { text: Object.entries(value).map(([k, v]) => `${humanize(k).toLowerCase()} ${describeValue(v).text}`).join(', ') };
  }
  return { text: String(value) };
}

function isColor(value: unknown): value is { r: number; g: number; b: number; alpha: number } {
  return typeof value === 'object' && value !== null && 'r' in value && 'g' in value && 'b' in value && 'alpha' in value;
}

function isLength(value: unknown): value is { value: number; unit: string } {
  return typeof value === 'object' && value !== null && 'value' in value && 'unit' in value && Object.keys(value).length === 2;
}

/** Words that say nothing about which operation is meant. */
const FILLER = new Set(['the', 'it', 'its', 'to', 'of', 'by', 'with', 'make', 'an', 'at', 'on', 'in', 'from', 'into', 'please', 'image', 'picture', 'photo']);

/** Catalogue examples that fit the clause being typed (the text after the last comma or "and"). */
export function suggestionsFor(prompt: string, catalogue: readonly OperationInfo[], max = 6): string[] {
  const clause = prompt.split(/,|\band\b|\bthen\b|;/i).pop()!.trim().toLowerCase();
  const examples = catalogue.flatMap((entry) => entry.examples);
  if (!clause) return catalogue.map((entry) => entry.examples[0]!).filter(Boolean).slice(0, max);
  const words = clause.split(/\s+/).filter((w) => w.length > 1 && !FILLER.has(w));
  const scored = examples
    .map((example) => {
      const text = example.toLowerCase();
      const score = (text.startsWith(clause) ? 10 : 0) + words.filter((w) => text.includes(w)).length;
      return { example, score };
    })
    .filter((s) => s.score > 0 && s.example.toLowerCase() !== clause);
  scored.sort((a, b) => b.score - a.score);
  return [...new Set(scored.map((s) => s.example))].slice(0, max);
}

/** The prompt with its last, partly typed clause replaced by a chosen suggestion. */
export function applySuggestion(prompt: string, suggestion: string): string {
  const match = /^(.*(?:,|\band\b|\bthen\b|;))\s*[^,;]*$/i.exec(prompt);
  const head = match ? match[1]!.trimEnd() : '';
  return head ? `${head} ${suggestion}` : suggestion;
}

