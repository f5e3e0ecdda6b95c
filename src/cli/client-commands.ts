import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { TesseraError} from '../../client/src/index.ts';
import { TesseraClient, type FileRecord, type UploadProgress } from '../../client/src/index.ts';
import { describeOperation, table } from './format.ts';
import { REQUESTABLE_OUTPUT_FORMATS } from '../edits/output-formats.ts';
import { lineWriter, type CliIo, type CliStream } from './io.ts';

/**
 * The client side of `npx tessera`: commands that talk to a running server over HTTP, with
 * TESSERA_URL and TESSERA_API_KEY (or --url and --key).
 */
interface GlobalOptions {
  url?: string;
  key?: string;
}

function clientOf(command: Command, env: CliIo['env']): TesseraClient {
  const options = command.optsWithGlobals<GlobalOptions>();
  const apiKey = options.key ?? env.TESSERA_API_KEY;
  if (!apiKey) throw new UsageError('no API key: set TESSERA_API_KEY (or pass --key); `npx tessera keys create --account NAME` makes one');
  return new TesseraClient({ baseUrl: options.url ?? env.TESSERA_URL ?? 'http://127.0.0.1:8080', apiKey });
}

export class UsageError extends Error {}

/** `90`, `90s`, `15m`, `1h`, `7d` → seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*(s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--expires must be a duration such as 3600, 15m, 1h or 7d, not ${JSON.stringify(text)}`);
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[(match[2] ?? 's') as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** What a person should read for an error answer: the status, then what to do about it. */
export function explain(error: TesseraError): string {
  switch (error.code) {
    case 'unauthorized':
      return '401: the API key was not accepted; set TESSERA_API_KEY (or pass --key) to a key from `npx tessera keys create`';
    case 'network_error':
      return error.details.reached ? error.message : `${error.message}; is the server running? Set TESSERA_URL (or pass --url)`;
    case 'prompt_not_understood': {
      const suggestions = (error.details.suggestions as { op: string; example: string }[] | undefined) ?? [];
      const tips = suggestions.map((s) => `\n  - ${s.op}: "${s.example}"`).join('');
      return `422: the prompt was not understood: "${String(error.details.clause ?? '')}"${tips ? `\nclosest operations:${tips}` : ''}\n(\`npx tessera ops\` lists every operation)`;
    }
    default:
      return `${error.status}: ${error.message}`;
  }
}

const fileRows = (files: FileRecord[]) =>
  table(
    ['FILE', 'NAME', 'TYPE', 'SIZE', 'CREATED', 'SPACE'],
    files.map((f) => [f.fileId, f.name, f.mimeType, f.sizeBytes, f.createdAt, f.workspaceId]),
  );

export function registerClientCommands(program: Command, io: CliIo): void {
  const say = lineWriter(io.stdout);
  const print = (json: boolean, value: unknown, human: () => void) => (json ? say(JSON.stringify(value, null, 2)) : human());
  program
    .option('--url <url>', 'server address (default: $TESSERA_URL or http://127.0.0.1:8080)')
    .option('--key <key>', 'API key (default: $TESSERA_API_KEY)');

  const spaces = program.command('spaces').description('Spaces (workspaces): list and create');
  spaces
    .command('ls')
    .description('list your Spaces')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExample:\n  $ npx tessera spaces ls')
    .action(async (options: { json?: boolean }, command: Command) => {
      const list = await clientOf(command, io.env).spaces.list();
      print(!!options.json, list, () => say(table(['SPACE', 'NAME', 'CREATED'], list.map((s) => [s.id, s.name, s.createdAt]))));
    });
  spaces
    .command('create')
    .description('create a Space; prints its id')
    .argument('<name>', 'a name, unique among your Spaces')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExample:\n  $ npx tessera spaces create holiday')
    .action(async (name: string, options: { json?: boolean }, command: Command) => {
      const space = await clientOf(command, io.env).spaces.create(name);
      print(!!options.json, space, () => say(space.id));
    });

  program
    .command('ls')
    .description('list files, newest first')
    .option('--space <id>', 'one Space only')
    .option('--limit <n>', 'files per page (1-1000)', '100')
    .option('--all', 'follow the cursor to the last file')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExamples:\n  $ npx tessera ls\n  $ npx tessera ls --space spc_01M8… --all --json')
    .action(async (options: { space?: string; limit: string; all?: boolean; json?: boolean }, command: Command) => {
      const client = clientOf(command, io.env);
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
      let files: FileRecord[] = [];
      let cursor = '';
      if (options.all) {
        for await (const file of client.files.listAll({ pageSize: limit, workspaceId: options.space })) files.push(file);
      } else {
        const page = await client.files.list({ limit, workspaceId: options.space });
        files = page.files;
        cursor = page.pagination.cursor;
      }
      print(!!options.json, options.all ? { files } : { files, cursor }, () => {
        say(files.length ? fileRows(files) : 'no files');
        if (cursor) lineWriter(io.stderr)(`more files: use --all, or the API with cursor=${cursor}`);
      });
    });

  program
    .command('upload')
    .description('upload files, several per request (each request stores all of its files, or none)')
    .argument('<files...>', 'paths of the files')
    .option('--space <id>', 'the Space to upload into (default: your "default" Space)')
    .option('--batch <n>', 'most files per request (the server accepts TESSERA_MAX_FILES_PER_UPLOAD, 100 by default)', '50')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExamples:\n  $ npx tessera upload beach.jpg\n  $ npx tessera upload *.png --space spc_01M8…')
    .action(async (paths: string[], options: { space?: string; batch: string; json?: boolean }, command: Command) => {
      for (const file of paths) if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`${file}: no such file`);
      const batch = Number(options.batch);
      if (!Number.isInteger(batch) || batch < 1) throw new UsageError('--batch must be a whole number of at least 1');
      const client = clientOf(command, io.env);
      const files: FileRecord[] = [];
      for (let i = 0; i < paths.length; i += batch) {
        const progress = progressBar(io.stderr);
        files.push(...(await client.files.upload(paths.slice(i, i + batch), { workspaceId: options.space, onProgress: progress.update })));
        progress.done();
      }
      print(!!options.json, { files }, () => say(fileRows(files)));
    });

  program
    .command('get')
    .description("download a file's bytes")
    .argument('<fileId>', 'file_…')
    .option('-o, --output <path>', 'where to write ("-" for stdout; default: the file\'s name in this directory)')
    .addHelpText('after', '\nExamples:\n  $ npx tessera get file_01M8…\n  $ npx tessera get file_01M8… -o copy.jpg')
    .action(async (fileId: string, options: { output?: string }, command: Command) => {
      const download = await clientOf(command, io.env).files.download(fileId);
      if (options.output === '-') return void (await pipeline(download.stream, io.stdout));
      const target = options.output ?? path.basename(download.name ?? fileId);
      await pipeline(download.stream, fs.createWriteStream(target));
      say(`wrote ${target}`);
    });

  program
    .command('link')
    .description('a signed URL for a file (or a thumbnail of it) that works without a key until it expires')
    .argument('<fileId>', 'file_…')
    .option('--expires <duration>', 'how long it works: seconds, or with s, m, h or d (at most the server\'s TESSERA_LINK_MAX_EXPIRES_SECONDS)', '1h')
    .option('--thumbnail <width>', 'link a WebP thumbnail this many pixels wide instead of the bytes')
    .option('--download', 'served as an attachment (a browser saves it rather than showing it)')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nThe URL is printed alone on the last line.\n\nExamples:\n  $ npx tessera link file_01M8… --expires 1h\n  $ npx tessera link file_01M8… --expires 7d --thumbnail 640')
    .action(async (fileId: string, options: { expires: string; thumbnail?: string; download?: boolean; json?: boolean }, command: Command) => {
      const expiresIn = parseDuration(options.expires);
      const thumbnailWidth = options.thumbnail === undefined ? undefined : Number(options.thumbnail);
      if (thumbnailWidth !== undefined && !Number.isInteger(thumbnailWidth)) throw new UsageError('--thumbnail must be a width in pixels, e.g. 640');
      const link = await clientOf(command, io.env).files.link(fileId, { expiresIn, thumbnailWidth, download: options.download });
      print(options.json === true, link, () => {
        say(`expires ${link.expires_at}`);
        say(link.url);
      });
    });

  program
    .command('account')
    .description("your account's usage and limits, and the scope of the key in use")
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) => {
      const account = await clientOf(command, io.env).account.get();
      print(options.json === true, account, () => {
        say(`account ${account.name}: ${account.usage.bytes} of ${account.limits.bytes ?? 'unlimited'} bytes, ${account.usage.files} of ${account.limits.files ?? 'unlimited'} files`);
        say(`key ${account.key.id}: scope ${account.key.scope}, ${account.key.workspace_id ? `Space ${account.key.workspace_id} only` : 'every Space'}`);
      });
    });

  program
    .command('rm')
    .description('delete files')
    .argument('<fileIds...>', 'file_… ids')
    .addHelpText('after', '\nExample:\n  $ npx tessera rm file_01M8…')
    .action(async (fileIds: string[], _options: unknown, command: Command) => {
      const client = clientOf(command, io.env);
      for (const fileId of fileIds) {
        await client.files.delete(fileId);
        say(`deleted ${fileId}`);
      }
    });

  program
    .command('edit')
    .description('edit an image with a plain-language prompt; the result is a new file')
    .argument('<fileId>', 'the source image, file_…')
    .argument('<prompt>', 'what to do, e.g. "rotate 90 degrees and make it black and white"')
    .option('--space <id>', "the Space for the result (default: the source's)")
    .option('--out <path>', 'also download the result to this path')
    .option('--format <format>', 'png, jpeg, webp or avif')
    .option('--name <name>', 'name of the result')
    .option('--dry-run', 'show the plan only; store nothing')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx tessera edit file_01M8… "rotate 90 degrees, make it black and white and add a red 10px border"\n  $ npx tessera edit file_01M8… "crop to 16:9 and convert to webp" --dry-run\n  $ npx tessera edit file_01M8… "resize to 1200 wide" --out small.jpg',
    )
    .action(async (fileId: string, prompt: string, options: { space?: string; out?: string; format?: string; name?: string; dryRun?: boolean; json?: boolean }, command: Command) => {
      const client = clientOf(command, io.env);
      if (options.format && !(REQUESTABLE_OUTPUT_FORMATS as readonly string[]).includes(options.format)) throw new UsageError(`--format must be one of ${REQUESTABLE_OUTPUT_FORMATS.join(', ')}`);
      const workspaceId = options.space ?? (await client.files.get(fileId)).workspaceId;
      const result = await client.images.edit({ prompt, fileId, workspaceId, outputFormat: options.format as 'png' | undefined, name: options.name, dryRun: options.dryRun });
      if (result.file_id && options.out) await client.files.downloadTo(result.file_id, options.out);
      print(!!options.json, result, () => {
        say(result.dry_run ? 'plan (nothing stored):' : 'applied:');
        result.operations.forEach((op, i) => say(`  ${i + 1}. ${describeOperation(op)}`));
        if (result.file_id) say(`${result.file_id}  ${result.name}  ${result.mime_type}  ${result.width}x${result.height}  ${result.size_bytes} bytes`);
        else say(`would write ${result.name} (${result.mime_type})`);
        if (result.file_id && options.out) say(`wrote ${options.out}`);
      });
    });

  program
    .command('ops')
    .description('the edits the server can perform, with example phrasings')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExample:\n  $ npx tessera ops')
    .action(async (options: { json?: boolean }, command: Command) => {
      const operations = await clientOf(command, io.env).images.operations();
      print(!!options.json, { operations }, () => {
        for (const op of operations) say(`${op.op.padEnd(18)} ${op.summary}\n${' '.repeat(19)}e.g. ${op.examples.map((e) => `"${e}"`).join(', ')}`);
      });
    });
}

/** A progress line on stderr for uploads of 8 MiB and more, when stderr is a terminal. */
function progressBar(stderr: CliStream): { update: (progress: UploadProgress) => void; done: () => void } {
  let drawn = false;
  return {
    update({ sentBytes, totalBytes }) {
      if (!stderr.isTTY || !totalBytes || totalBytes < 8 * 2 ** 20) return;
      const share = sentBytes / totalBytes;
      const width = 30;
      stderr.write(`\r[${'#'.repeat(Math.round(share * width)).padEnd(width)}] ${(share * 100).toFixed(0).padStart(3)}%  ${(sentBytes / 2 ** 20).toFixed(1)} of ${(totalBytes / 2 ** 20).toFixed(1)} MiB`);
      drawn = true;
    },
    done() {
      if (drawn) stderr.write('\n');
    },
  };
}
