import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

/**
 * The documents are read by people who follow their links: every relative link and #anchor in
 * README.md and docs/ must lead somewhere inside the project, and every setting src/config.ts
 * reads must have its row in docs/configuration.md.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

function markdownFiles(): string[] {
  const found = [path.join(ROOT, 'README.md')];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) found.push(full);
    }
  };
  walk(path.join(ROOT, 'docs'));
  return found;
}

/** The text outside fenced code blocks and inline code, where `#` and `[x](y)` are not markup. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence === undefined) lines.push(line.replace(/(`+)[^`]*?\1/g, ''));
  }
  return lines;
}

/** GitHub's anchor for a heading: its text lowercased, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*+/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Headings are read with their inline code, which counts in the slug.
  let fence: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1] : undefined;
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  file: string;
  target: string;
}

function linksOf(file: string): Link[] {
  const links: Link[] = [];
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, target: match[1]! });
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. External links are not followed. */
export function brokenLink(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined;
  const [rawPath = '', anchor] = link.target.split('#', 2);
  const target = rawPath === '' ? link.file : path.resolve(path.dirname(link.file), decodeURIComponent(rawPath));
  if (path.relative(ROOT, target).startsWith('..')) return 'points outside the project';
  if (!existsSync(target)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return 'an anchor into something that is not a Markdown file';
  return anchorsOf(target).has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `no heading #${anchor}`;
}

/** Every setting src/config.ts reads: the names given to its reader, and TESSERA_ ones read directly. */
function configSettings(): string[] {
  const source = readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  const names = new Set<string>();
  for (const match of source.matchAll(/\bread\.\w+\(\s*'([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]!);
  for (const match of source.matchAll(/\benv(?:\.|\[')(TESSERA_[A-Z0-9_]+)/g)) names.add(match[1]!);
  return [...names].sort();
}

/** The settings named in the first column of docs/configuration.md's tables. */
function documentedSettings(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8').split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (firstCell === undefined) continue;
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
  }
  return names;
}

describe('documentation', () => {
  test('GitHub slugs of headings', () => {
    assert.equal(headingSlug('Scaling out: PostgreSQL and S3'), 'scaling-out-postgresql-and-s3');
    assert.equal(headingSlug('Checking and reclaiming: `tessera verify`, `tessera gc`'), 'checking-and-reclaiming-tessera-verify-tessera-gc');
    assert.equal(headingSlug('Results (`npm run bench`, full mode, 2026-11-23)'), 'results-npm-run-bench-full-mode-2026-11-23');
    assert.equal(headingSlug('A walk-through with curl'), 'a-walk-through-with-curl');
  });

  test('a broken link is found', () => {
    const readme = path.join(ROOT, 'README.md');
    assert.equal(brokenLink({ file: readme, target: 'docs/no-such-file.md' }), 'no such file');
    assert.equal(brokenLink({ file: readme, target: 'docs/configuration.md#no-such-heading' }), 'no heading #no-such-heading');
    assert.equal(brokenLink({ file: readme, target: '../outside/file.md' }), 'points outside the project');
    assert.equal(brokenLink({ file: readme, target: 'docs/configuration.md#configuration' }), undefined);
    assert.equal(brokenLink({ file: readme, target: 'https://example.com/#anything' }), undefined);
  });

  test('every relative link and anchor in README.md and docs/ resolves', () => {
    const files = markdownFiles();
    assert.ok(files.length >= 8, `found only ${files.length} Markdown files`);
    const links = files.flatMap(linksOf);
    assert.ok(links.length >= 30, `found only ${links.length} links`);
    const broken = links.flatMap((link) => {
      const why = brokenLink(link);
      return why ? [`${path.relative(ROOT, link.file)}: (${link.target}) ${why}`] : [];
    });
    assert.deepEqual(broken, []);
  });

  test('no document refers to files outside the project', () => {
    const outside = markdownFiles().filter((file) => /\.\.\/shared\b/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(outside.map((file) => path.relative(ROOT, file)), []);
  });

  test('every `npm run` a document names is a script of package.json (the screenshots one included)', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = new Set<string>();
    for (const file of markdownFiles()) for (const match of readFileSync(file, 'utf8').matchAll(/\bnpm run ([a-z][\w:-]*)/g)) named.add(match[1]!);
    assert.ok(named.has('console:screenshots'), 'the README names the script that makes the console screenshots again');
    assert.deepEqual([...named].filter((name) => !scripts.includes(name)).sort(), []);
  });

  test('every setting read in src/config.ts is documented in docs/configuration.md', () => {
    const settings = configSettings();
    assert.ok(settings.length >= 60, `found only ${settings.length} settings in src/config.ts`);
    const documented = documentedSettings();
    assert.deepEqual(settings.filter((name) => !documented.has(name)), []);
  });
});
