/** Text output of the CLI: aligned tables and plans a person can read. */

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  return [header, ...rows].map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}

type Value = unknown;

function isColor(value: Value): value is { r: number; g: number; b: number; alpha: number } {
  return typeof value === 'object' && value !== null && 'r' in value && 'g' in value && 'b' in value;
}

function isLength(value: Value): value is { value: number; unit: 'px' | '%' } {
  return typeof value === 'object' && value !== null && 'unit' in value && 'value' in value;
}

function show(value: Value): string {
  if (isColor(value)) {
    const hex = `#${[value.r, value.g, value.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    return value.alpha === 0 ? 'transparent' : value.alpha < 1 ? `${hex} at ${Math.round(value.alpha * 100)}%` : hex;
  }
  if (isLength(value)) return `${value.value}${value.unit}`;
  if (Array.isArray(value)) return value.join(':');
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

/** "border: width 10, color #ff0000" */
export function describeOperation(operation: { op: string; [key: string]: Value }): string {
  const { op, ...parameters } = operation;
  const details = Object.entries(parameters).map(([name, value]) => `${name} ${show(value)}`);
  return details.length ? `${op}: ${details.join(', ')}` : op;
}
