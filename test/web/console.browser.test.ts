import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { tessera } from '../helpers/cli.ts';
import { OpenAiTestServer } from '../helpers/openai-server.ts';
import { reportSkipped } from '../helpers/skips.ts';
import { startServer, type ServerProcess } from '../helpers/server.ts';

/**
 * The console in a real Chromium (Debian's, driven by playwright-core) against a real server
 * process on SQLite: what a newcomer does, click by click. With TESSERA_CONSOLE_SCREENSHOTS=dir
 * it also saves the main screens there (docs/console holds the committed ones).
 */
const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const KEY = 'tsk_console_test_key_0123456789abcdef';
const SEED_PROMPT = 'rotate 90 degrees, make it black and white and add a red 10px border';
const shots = process.env.TESSERA_CONSOLE_SCREENSHOTS;

/** The little of the DOM these tests read inside the page (Node's types have no DOM). */
interface BrowserGlobals {
  document: {
    querySelector(selector: string): { complete: boolean; naturalWidth: number } | null;
    querySelectorAll(selector: string): Iterable<{ complete: boolean; naturalWidth: number }>;
  };
}

/** A picture worth looking at in a screenshot: a gradient with a sun and a card. */
async function picture(hue: number, width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},72%,62%)"/><stop offset="1" stop-color="hsl(${hue + 50},70%,34%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.68}" cy="${height * 0.36}" r="${height * 0.2}" fill="hsl(${hue + 180},85%,72%)"/><rect x="${width * 0.14}" y="${height * 0.56}" width="${width * 0.3}" height="${height * 0.28}" rx="${height * 0.04}" fill="#fff" opacity="0.75"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

// Without a Chromium the suite is reported as skipped (and counted), as the PostgreSQL and S3 parts are;
// under CI (which installs one) a missing Chromium fails in before() below.
const chromiumMissing = await fs.access(CHROMIUM).then(
  () => false,
  () => true,
);
const skip = chromiumMissing && !process.env.CI;
if (skip) reportSkipped('the browser tests', `no Chromium at ${CHROMIUM}; install Debian's chromium (apt-get install chromium) or point TESSERA_CHROMIUM at one`);

describe('web console in Chromium', { skip: skip ? `no Chromium at ${CHROMIUM}` : false }, () => {
  let server: ServerProcess;
  /** A local Images API server, so the console can show generative steps. */
  let images: OpenAiTestServer;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const problems: string[] = [];

  const api = async (route: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${route}`, { ...init, headers: { 'x-api-key': KEY, ...(init.headers as Record<string, string>) } });
    assert.ok(response.ok || response.status === 404, `${route}: ${response.status}`);
    return response;
  };
  const snap = async (name: string) => {
    if (!shots) return;
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, `${name}.png`) });
  };

  before(async () => {
    await fs.access(CHROMIUM).catch(() => {
      throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or point TESSERA_CHROMIUM at one`);
    });
    // The console under test is built from the sources as they are now.
    execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], { stdio: 'inherit' });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-console-e2e-'));
    if (shots) await fs.mkdir(shots, { recursive: true });
    await fs.writeFile(path.join(dir, 'sunset.jpg'), await picture(18, 1600, 1000));
    await fs.writeFile(path.join(dir, 'lagoon.jpg'), await picture(185, 1200, 900));
    await fs.writeFile(path.join(dir, 'too-big.bin'), Buffer.alloc(3 * 1024 * 1024, 1));
    images = await new OpenAiTestServer().start();
    server = await startServer({
      TESSERA_DATA_DIR: path.join(dir, 'data'),
      TESSERA_API_KEY: KEY,
      TESSERA_MAX_FILE_BYTES: String(2 * 1024 * 1024),
      TESSERA_QUILT_BATCH_WINDOW_MS: '1',
      TESSERA_GENERATIVE_PROVIDER: 'openai',
      TESSERA_GENERATIVE_BASE_URL: images.url,
      TESSERA_GENERATIVE_MODEL: 'gpt-image-1',
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    // Counts Blob URLs the console makes: images and downloads are signed links now, never Blobs.
    await page.addInitScript(() => {
      const scope = globalThis as unknown as { URL: { createObjectURL: (...args: unknown[]) => string }; blobUrls: number };
      scope.blobUrls = 0;
      const original = scope.URL.createObjectURL.bind(scope.URL);
      scope.URL.createObjectURL = (...args: unknown[]) => {
        scope.blobUrls++;
        return original(...args);
      };
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await images?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  test('sign in: a wrong key is refused with a clear message, the right one opens the console', async () => {
    await page.goto(server.url);
    await page.getByLabel('API key').waitFor();
    await snap('sign-in');
    await page.getByLabel('API key').fill('tsk_not_a_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.match(await page.getByRole('alert').innerText(), /not accepted/);
    await page.getByLabel('API key').fill(KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'All files' }).waitFor();
    await page.getByRole('heading', { name: /No files in all Spaces yet/ }).waitFor();
    await snap('empty');
    assert.equal(await page.evaluate(`sessionStorage.getItem('tessera.apiKey')`), KEY, 'kept in this tab only');
  });

  test('upload two images and a file over the limit: progress, the grid, and a clear refusal', async () => {
    await page.getByTestId('file-picker').setInputFiles([path.join(dir, 'sunset.jpg'), path.join(dir, 'lagoon.jpg'), path.join(dir, 'too-big.bin')]);
    const tray = page.getByRole('complementary', { name: 'Uploads' });
    await tray.getByText('1 of 3 refused').waitFor();
    assert.match(await tray.getByRole('alert').innerText(), /too large/i);
    for (const name of ['sunset.jpg', 'lagoon.jpg']) {
      const card = page.getByRole('button', { name: `Open ${name}` });
      await card.waitFor();
      // The thumbnail came from the server and decoded to real pixels.
      await card.locator('img').waitFor();
      await page.waitForFunction((selector) => {
        const img = (globalThis as unknown as BrowserGlobals).document.querySelector(selector);
        return img !== null && img.complete && img.naturalWidth > 0;
      }, `button[aria-label="Open ${name}"] img`);
      const width = await card.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
      assert.ok(width >= 320 && width <= 640, `a thumbnail, not the original: ${width}px wide`);
      const src = await card.locator('img').getAttribute('src');
      assert.match(String(src), new RegExp(`^${server.url}/links/files/file_\\w+/thumbnail\\?expires=\\d+&width=\\d+&sig=`), 'the browser loads a signed link itself');
    }
    const listed = (await (await api('/v1/storage/files')).json()) as { files: Array<{ name: string }> };
    assert.deepEqual(listed.files.map((f) => f.name).sort(), ['lagoon.jpg', 'sunset.jpg'], 'the refused file was not stored');
    assert.deepEqual(await page.locator('.card-name').allInnerTexts(), listed.files.map((f) => f.name), 'in the order of the list: newest first');
    // The sidebar shows what the account stores (no quota is set here).
    await page.getByTestId('usage').filter({ hasText: '· 2 files' }).waitFor();
    assert.match(await page.getByTestId('usage').innerText(), /^[\d.]+ KB \(no limit\) · 2 files$/);
    await snap('uploads');
  });

  test('edit: the plan first (dry run), then the result beside the original, stored as a new file', async () => {
    await page.getByRole('button', { name: 'Open sunset.jpg' }).click();
    const dialog = page.getByRole('dialog', { name: 'sunset.jpg', exact: true });
    await dialog.getByRole('heading', { name: 'Edit with a prompt' }).waitFor();
    await dialog.getByRole('textbox').fill(SEED_PROMPT);
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    await dialog.getByText('The server will apply 3 steps').waitFor();
    assert.deepEqual(await dialog.locator('.step strong').allInnerTexts(), ['Rotate', 'Grayscale', 'Border']);
    assert.equal(((await (await api('/v1/storage/files')).json()) as { files: unknown[] }).files.length, 2, 'a dry run stores nothing');
    await snap('edit-plan');

    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Saved as sunset-edited.jpg').waitFor();
    await dialog.getByRole('img', { name: 'Original: sunset.jpg' }).waitFor();
    await dialog.getByRole('img', { name: 'Result: sunset-edited.jpg' }).waitFor();
    await page.waitForFunction(() => [...(globalThis as unknown as BrowserGlobals).document.querySelectorAll('.stage img')].every((img) => img.complete && img.naturalWidth > 0));
    const [original, result] = await dialog.locator('.stage img').evaluateAll((imgs) => (imgs as unknown as Array<{ naturalWidth: number; naturalHeight: number }>).map((img) => [img.naturalWidth, img.naturalHeight]));
    assert.ok(original![0]! > original![1]! && result![0]! < result![1]!, `the result is turned: ${original} → ${result}`);
    await snap('edit-result');

    const files = ((await (await api('/v1/storage/files')).json()) as { files: Array<{ fileId: string; name: string }> }).files;
    const edited = files.find((f) => f.name === 'sunset-edited.jpg');
    assert.ok(edited, 'the result is a stored, listed file');
    const meta = await sharp(Buffer.from(await (await api(`/v1/storage/files/${edited.fileId}/content`)).arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [1020, 1620], 'rotated, with a 10px border on each side');

    await dialog.getByRole('button', { name: 'Open the result' }).click();
    const resultDialog = page.getByRole('dialog', { name: 'sunset-edited.jpg', exact: true });
    await resultDialog.getByRole('heading', { name: 'Made by an edit' }).waitFor();
    assert.equal(await resultDialog.locator('.prompt-quote').innerText(), SEED_PROMPT);
    await resultDialog.getByRole('button', { name: 'sunset.jpg' }).waitFor();
    await page.keyboard.press('Escape');
    await resultDialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open sunset-edited.jpg' }).waitFor();
  });

  test('a prompt the server cannot map is explained where it was typed, with suggestions to click', async () => {
    await page.getByRole('button', { name: 'Open lagoon.jpg' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'lagoon.jpg', exact: true });
    const prompt = dialog.getByRole('textbox');
    await prompt.fill('make it sparkle');
    await prompt.press('Enter');
    const error = dialog.locator('#edit-error');
    await error.waitFor();
    assert.match(await error.innerText(), /Not understood:\s+Could not understand "make it sparkle"/, 'the reason leads the message');
    assert.equal(await prompt.getAttribute('aria-invalid'), 'true');
    await snap('edit-error');
    const suggestion = error.getByRole('button').first();
    const text = await suggestion.innerText();
    await suggestion.click();
    assert.equal(await prompt.inputValue(), text, 'the suggestion replaced the clause');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('delete asks first, then the file is gone from the grid and the server', async () => {
    await page.getByRole('button', { name: 'Close the upload list' }).click();
    if (shots) {
      // A fuller grid for the README's picture.
      const form = new FormData();
      for (const [name, hue] of [['harbour.jpg', 215], ['meadow.jpg', 95], ['dunes.jpg', 32], ['glacier.jpg', 170], ['orchard.jpg', 330]] as const) {
        form.append('file', new Blob([await picture(hue, 1200, 800)], { type: 'image/jpeg' }), name);
      }
      await api('/v1/storage/files', { method: 'POST', body: form });
      await page.reload();
      await page.waitForFunction(() => {
        const images = [...(globalThis as unknown as BrowserGlobals).document.querySelectorAll('.grid img')];
        return images.length === 8 && images.every((img) => img.complete && img.naturalWidth > 0);
      });
      await snap('grid');
    }
    await page.getByRole('button', { name: 'Open lagoon.jpg' }).click();
    const dialog = page.getByRole('dialog', { name: 'lagoon.jpg', exact: true });
    const fileId = (await dialog.locator('.record-row', { hasText: 'File ID' }).locator('dd').innerText()).trim();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete lagoon.jpg?' });
    await confirm.waitFor();
    assert.equal(await page.evaluate(`document.activeElement?.textContent?.trim()`), 'Cancel', 'the safe answer has the focus');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open lagoon.jpg' }).waitFor({ state: 'detached' });
    assert.equal((await api(`/v1/storage/files/${fileId}`)).status, 404);
  });

  test('a Space with 130 files loads page after page as the grid scrolls', async () => {
    const space = (await (await api('/v1/spaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'archive' }) })).json()) as { id: string };
    for (let batch = 0; batch < 2; batch++) {
      const form = new FormData();
      form.append('workspace_id', space.id);
      for (let i = 0; i < 65; i++) form.append('file', new Blob([`note ${batch * 65 + i}`], { type: 'text/plain' }), `note-${String(batch * 65 + i).padStart(3, '0')}.txt`);
      await api('/v1/storage/files', { method: 'POST', body: form });
    }
    await page.reload();
    await page.getByRole('heading', { name: 'All files' }).waitFor();
    await page.getByRole('button', { name: 'Open note-129.txt' }).waitFor();
    // Every render under the archive's heading, counted: the grid must never show another view's
    // cards there (All files holds these same notes, so only a drop back to none would tell).
    await page.evaluate(`
      window.cardsUnderArchive = [];
      new MutationObserver(() => {
        if (document.querySelector('h1')?.textContent !== 'archive') return;
        window.cardsUnderArchive.push(document.querySelectorAll('.grid .card:not(.skeleton)').length);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    `);
    await page.getByRole('navigation', { name: 'Spaces' }).getByRole('link', { name: 'archive' }).click();
    await page.getByRole('heading', { name: 'archive', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open note-129.txt' }).waitFor();
    const cards = page.locator('.grid .card:not(.skeleton)');
    assert.equal(await cards.count(), 60, 'one page at first');
    const counts = (await page.evaluate(`window.cardsUnderArchive`)) as number[];
    assert.equal(counts[0], 0, `the archive starts empty, loading, not with the files of All files (cards at each render: ${counts.join(', ')})`);
    assert.equal(await page.locator('.type-badge', { hasText: 'TXT' }).first().isVisible(), true, 'non-images show their type');
    for (let i = 0; i < 20 && (await page.getByText('All 130 files shown').count()) === 0; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(150);
    }
    await page.getByText('All 130 files shown').waitFor();
    assert.equal(await cards.count(), 130);
    assert.deepEqual(await page.locator('.card-name').evaluateAll((names) => names.slice(0, 2).map((n) => n.textContent)), ['note-129.txt', 'note-128.txt'], 'newest first');
  });

  test('a Space made public from the sidebar is created so and marked there', async () => {
    const nav = page.getByRole('navigation', { name: 'Spaces' });
    await nav.getByRole('button', { name: 'New Space' }).click();
    await page.getByLabel('Name of the new Space').fill('press kit');
    await page.getByLabel(/Public/).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'press kit', level: 1 }).waitFor();
    await nav.getByRole('link', { name: /press kit/ }).locator('.badge', { hasText: 'public' }).waitFor();
    assert.equal(await nav.locator('.badge', { hasText: 'public' }).count(), 1, 'only the public Space is marked');
    const spaces = ((await (await api('/v1/spaces')).json()) as { spaces: Array<{ name: string; encryption: string }> }).spaces;
    assert.deepEqual(spaces.filter((s) => s.encryption === 'none').map((s) => s.name), ['press kit']);
  });

  test('on a phone-sized window the Spaces move into a menu and the grid has two columns', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/#/all`);
    await page.getByRole('heading', { name: 'All files' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Spaces' }).isVisible(), false);
    const menu = page.getByRole('combobox', { name: 'Space' });
    await menu.selectOption({ label: 'default' });
    await page.getByRole('heading', { name: 'default', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open sunset.jpg' }).waitFor();
    const columns = await page.evaluate(`getComputedStyle(document.querySelector('.grid')).gridTemplateColumns.split(' ').length`);
    assert.equal(columns, 2);
    await snap('phone');
    await page.getByRole('button', { name: 'Open sunset-edited.jpg' }).click();
    await page.getByRole('dialog', { name: 'sunset-edited.jpg', exact: true }).getByRole('heading', { name: 'Made by an edit' }).waitFor();
    await snap('phone-file');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1366, height: 860 });
  });

  test('files dropped on the page are uploaded into the Space on screen, and download gives back the bytes', async () => {
    const bytes = await picture(260, 640, 480);
    await page.getByRole('navigation', { name: 'Spaces' }).getByRole('link', { name: 'archive' }).click();
    await page.getByRole('heading', { name: 'archive', level: 1 }).waitFor();
    const dataTransfer = await page.evaluateHandle((base64) => {
      const browser = globalThis as unknown as { DataTransfer: new () => { items: { add(file: unknown): void } }; File: typeof File; atob(s: string): string };
      const transfer = new browser.DataTransfer();
      const raw = browser.atob(base64);
      transfer.items.add(new browser.File([Uint8Array.from(raw, (c) => c.charCodeAt(0))], 'dropped.jpg', { type: 'image/jpeg' }));
      return transfer;
    }, bytes.toString('base64'));
    await page.dispatchEvent('main', 'dragenter', { dataTransfer });
    await page.getByText('Drop to upload to archive').waitFor();
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await page.getByText('Drop to upload to archive').waitFor({ state: 'detached' });
    const card = page.getByRole('button', { name: 'Open dropped.jpg' });
    await card.waitFor();
    assert.equal(await page.locator('.card-name').first().innerText(), 'dropped.jpg', 'first in the grid');

    await card.click();
    const dialog = page.getByRole('dialog', { name: 'dropped.jpg', exact: true });
    assert.equal(await dialog.locator('.record-row', { hasText: 'Space' }).locator('dd').innerText(), 'archive');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download' }).click()]);
    assert.equal(download.suggestedFilename(), 'dropped.jpg');
    assert.deepEqual(await fs.readFile((await download.path())!), bytes);
    assert.match(download.url(), /\/links\/files\/file_\w+\/content\?expires=\d+&download=1&sig=/, 'downloaded from a signed link');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // A large file goes straight from the server to the disk: no Blob in the page at any point.
    const large = Buffer.alloc(1_900_000);
    for (let i = 0; i < large.length; i += 4) large.writeUInt32LE((i * 2654435761) >>> 0, i);
    const archive = ((await (await api('/v1/spaces')).json()) as { spaces: Array<{ id: string; name: string }> }).spaces.find((s) => s.name === 'archive')!.id;
    const form = new FormData();
    form.append('workspace_id', archive);
    form.append('file', new Blob([large]), 'large.bin');
    const uploaded = (await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: Array<{ fileId: string }> };
    await page.goto(`${server.url}/#/spaces/${archive}/files/${uploaded.files[0]!.fileId}`);
    const largeDialog = page.getByRole('dialog', { name: 'large.bin', exact: true });
    const [largeDownload] = await Promise.all([page.waitForEvent('download'), largeDialog.getByRole('button', { name: 'Download' }).click()]);
    assert.equal(largeDownload.suggestedFilename(), 'large.bin');
    assert.deepEqual(await fs.readFile((await largeDownload.path())!), large);
    assert.equal(await page.evaluate('globalThis.blobUrls'), 0, 'no Blob URL was made for images or downloads');
    await page.keyboard.press('Escape');
    await largeDialog.waitFor({ state: 'detached' });
  });

  test('an <img src> of a signed link renders in Chromium with no key anywhere on the page', async () => {
    const form = new FormData();
    form.append('file', new Blob([await fs.readFile(path.join(dir, 'sunset.jpg'))], { type: 'image/jpeg' }), 'sunset.jpg');
    const sunset = ((await (await api('/v1/storage/files', { method: 'POST', body: form })).json()) as { files: Array<{ fileId: string }> }).files[0]!;
    const link = async (body: object) =>
      ((await (await api(`/v1/storage/files/${sunset.fileId}/links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { url: string }).url;
    const content = await link({ expires_in: 600 });
    const thumbnail = await link({ expires_in: 600, thumbnail_width: 200 });
    const tampered = content.replace(/sig=./, (m) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    const context = await browser.newContext();
    const bare = await context.newPage();
    const keysSent: string[] = [];
    bare.on('request', (request) => request.headers()['x-api-key'] && keysSent.push(request.url()));
    try {
      await bare.setContent(`<!doctype html><title>links</title><img id="content" src="${content}"><img id="thumb" src="${thumbnail}"><img id="bad" src="${tampered}">`);
      await bare.waitForFunction(() => {
        const all = [...(globalThis as unknown as BrowserGlobals).document.querySelectorAll('img')];
        return all.every((img) => img.complete);
      });
      const widths = await bare.evaluate(`[...document.images].map((img) => img.naturalWidth)`);
      assert.deepEqual(widths, [1600, 200, 0], 'the original and the thumbnail render; the altered link does not');
      assert.equal(keysSent.length, 0, 'no request carried a key');
      const html = await bare.content();
      assert.doesNotMatch(html, /tsk_/, 'no key anywhere on the page');
      assert.deepEqual(await context.cookies(), [], 'and no cookie: the link alone is the credential');
    } finally {
      await context.close();
    }
  });

  test('a preview of a region edit says the region was not looked for yet (regions_unchecked), and a whole-image one says nothing of it', async () => {
    await page.getByRole('button', { name: 'Open dropped.jpg' }).click();
    const dialog = page.getByRole('dialog', { name: 'dropped.jpg', exact: true });
    await dialog.getByRole('textbox').fill('blur the backdrop and brighten her face');
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    await dialog.getByText('The server will apply 2 steps').waitFor();
    assert.match(await dialog.getByRole('note').innerText(), /^Not looked for yet: the background and faces\. A preview runs no model/);
    await dialog.getByRole('textbox').fill('rotate 90 degrees');
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    await dialog.getByText('The server will apply one step').waitFor();
    assert.equal(await dialog.getByRole('note').count(), 0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  test('a generative step is marked in the plan, and the lineage names the provider and model', async () => {
    await page.getByRole('button', { name: 'Open dropped.jpg' }).click();
    const dialog = page.getByRole('dialog', { name: 'dropped.jpg', exact: true });
    await dialog.getByRole('textbox').fill('increase the contrast and remove the people in the background');
    await dialog.getByRole('button', { name: 'Preview plan' }).click();
    await dialog.getByText('The server will apply 2 steps').waitFor();
    assert.deepEqual(await dialog.locator('.step strong').allInnerTexts(), ['Contrast', 'Generative edit']);
    const generative = dialog.locator('.step-generative');
    assert.match(await generative.innerText(), /remove the people in the background[\s\S]*openai · gpt-image-1/);
    assert.equal(images.imageCalls.length, 0, 'a preview calls no provider');
    await snap('edit-generative-plan');

    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Saved as dropped-edited.jpg').waitFor();
    assert.equal(images.imageCalls.length, 1);
    await dialog.getByRole('button', { name: 'Open the result' }).click();
    const resultDialog = page.getByRole('dialog', { name: 'dropped-edited.jpg', exact: true });
    await resultDialog.getByRole('heading', { name: 'Made by an edit' }).waitFor();
    assert.match(await resultDialog.locator('.lineage-provider').innerText(), /openai · gpt-image-1/);
    await resultDialog.locator('.step-generative').waitFor();
    await page.keyboard.press('Escape');
    await resultDialog.waitFor({ state: 'detached' });
  });

  test('sign out forgets the key; a key revoked meanwhile sends the user back to sign in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.evaluate(`sessionStorage.getItem('tessera.apiKey')`), null);

    const env = { TESSERA_DATA_DIR: path.join(dir, 'data') };
    const created = await tessera(env, 'keys', 'create', '--account', 'default', '--name', 'laptop');
    assert.equal(created.status, 0, created.stderr);
    const second = created.stdout.trim().split('\n').pop()!;
    await page.getByLabel('API key').fill(second);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Open dropped.jpg' }).waitFor();
    const listed = JSON.parse((await tessera(env, 'keys', 'list', '--json')).stdout) as { keys: Array<{ id: string; name: string }> };
    const revoked = await tessera(env, 'keys', 'revoke', listed.keys.find((k) => k.name === 'laptop')!.id);
    assert.equal(revoked.status, 0, revoked.stderr);
    // The next request the console makes is refused; it signs out and says why. That request is
    // the click below, or one the grid makes by itself (a signed link for a thumbnail) before it:
    // then the page has signed out already and the link is gone, which is as right.
    const click = page.getByRole('navigation', { name: 'Spaces' }).getByRole('link', { name: 'All files' }).click({ timeout: 10_000 }).catch(() => undefined);
    await page.getByText(/no longer accepted/).waitFor();
    await click;
    assert.equal(await page.evaluate(`sessionStorage.getItem('tessera.apiKey')`), null);
    assert.deepEqual(problems, [], 'no page errors and nothing blocked by the Content-Security-Policy');
  });
});
