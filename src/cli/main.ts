import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { createContext, type AppContext } from '../context.ts';
import { openMigratedDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { AccountsRepository } from '../db/repositories/accounts.repository.ts';
import { ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';
import { AppError } from '../errors.ts';
import { SpacesRepository } from '../db/repositories/spaces.repository.ts';
import { AccountsService } from '../services/accounts.service.ts';
import { isKeyScope, KeysService } from '../services/keys.service.ts';
import { GC_LOCK } from '../services/storage-maintenance.service.ts';
import { WALRUS_RENEW_LOCK, rewrapSealedKeys, type WalrusLifecycle } from '../services/walrus.service.ts';
import { TesseraError } from '../../client/src/index.ts';
import { explain, registerClientCommands, UsageError } from './client-commands.ts';
import { lineWriter, type CliIo } from './io.ts';

/**
 * `npx tessera …`. Operator commands (keys, migrate) read the same settings as the server
 * (TESSERA_DATA_DIR or DATABASE_URL) and work while it runs; the others talk to a running server
 * over HTTP (client-commands.ts).
 */
/**
 * The settings a command opens the database with: the server's, less SQLite's checkpoint thread.
 * Beside a running server, a command's thread would read the server's log and copy it while
 * holding only the command's own writers, so the server's next write would start the log over and
 * sync it on its event loop; and a short command needs no thread. Its writes, if any, are left to
 * SQLite's own checkpoint.
 */
export function commandConfig(env: CliIo['env']): Config {
  return { ...loadConfig(env), sqliteCheckpointIntervalMs: 0 };
}

async function withKeys<T>(env: CliIo['env'], run: (keys: KeysService, database: Database) => Promise<T>): Promise<T> {
  const database = await openMigratedDatabase(commandConfig(env));
  try {
    return await run(new KeysService(new AccountsRepository(database.db), new ApiKeysRepository(database.db, database.dialect), new SpacesRepository(database.db)), database);
  } finally {
    await database.close();
  }
}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const describeUsage = (u: { name: string; usedBytes: number; usedFiles: number; limitBytes: number | undefined; limitFiles: number | undefined }) =>
  `${u.name}: ${u.usedBytes} of ${u.limitBytes ?? 'unlimited'} bytes, ${u.usedFiles} of ${u.limitFiles ?? 'unlimited'} files`;

async function withContext<T>(env: CliIo['env'], run: (context: AppContext) => Promise<T>): Promise<T> {
  const context = await createContext(commandConfig(env));
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

function quotaDefaults(env: CliIo['env']) {
  const config = loadConfig(env);
  return { bytes: config.defaultQuotaBytes, files: config.defaultQuotaFiles };
}

/** The Walrus lifecycle of a context, or a usage error when the engine is another. */
function walrusOf(context: AppContext): WalrusLifecycle {
  if (!context.walrus) throw new UsageError(`TESSERA_STORE is ${context.config.store}; these commands are for TESSERA_STORE=walrus`);
  return context.walrus;
}

/** The commands, writing to `io`; `status.code` is what a command that finished asks to exit with. */
function buildProgram(io: CliIo, status: { code: number }): Command {
  const say = lineWriter(io.stdout);
  const program = new Command('tessera')
    .description('Tessera: files and prompt-driven image edits, from the command line')
    .exitOverride()
    // Set before the subcommands are added, which inherit it.
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
    });

  const keys = program.command('keys').description('API keys: create, list, revoke');

  keys
    .command('create')
    .description('create a key for an account (created if new); the key is printed alone on the last line')
    .requiredOption('--account <name>', 'account that owns the key')
    .option('--name <label>', 'a label to recognise the key by')
    .option('--scope <scope>', 'read (list and download), write (also upload, edit, delete) or admin (also manage keys)', 'admin')
    .option('--space <spc_id>', 'bind the key to this Space of the account: it sees and touches nothing else')
    .addHelpText(
      'after',
      '\nExamples:\n  $ npx tessera keys create --account alice\n  $ npx tessera keys create --account alice --scope read --space spc_01M8… --name gallery\n  $ DATABASE_URL=postgres://… npx tessera keys create --account alice --name laptop',
    )
    .action(async (options: { account: string; name?: string; scope: string; space?: string }) => {
      const scope = options.scope;
      if (!isKeyScope(scope)) throw new UsageError(`--scope must be read, write or admin, not ${JSON.stringify(scope)}`);
      const created = await withKeys(io.env, (k) => k.create(options.account, { label: options.name, scope, spaceId: options.space }));
      const reach = created.spaceId ? `Space ${created.spaceId} only` : 'every Space';
      say(`created ${created.id} "${created.name}" for account ${created.accountName} (${created.accountId}): scope ${created.scope}, ${reach}`);
      say('the key is shown only this once; store it now:');
      say(created.key);
    });

  keys
    .command('list')
    .description('list keys (never the keys themselves)')
    .option('--account <name>', 'only this account')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExamples:\n  $ npx tessera keys list\n  $ npx tessera keys list --account alice --json')
    .action(async (options: { account?: string; json?: boolean }) => {
      const rows = await withKeys(io.env, (k) => k.list(options.account));
      if (options.json) {
        return say(
          JSON.stringify({ keys: rows.map((r) => ({ id: r.id, account: r.account_name, name: r.name, scope: r.scope, spaceId: r.space_id, createdAt: iso(r.created_at), revokedAt: r.revoked_at === null ? null : iso(r.revoked_at) })) }, null, 2),
        );
      }
      if (rows.length === 0) return say('no keys');
      say(['ID', 'ACCOUNT', 'NAME', 'SCOPE', 'SPACE', 'CREATED', 'REVOKED'].join('\t'));
      for (const row of rows) say([row.id, row.account_name, row.name, row.scope, row.space_id ?? '*', iso(row.created_at), iso(row.revoked_at)].join('\t'));
    });

  keys
    .command('revoke')
    .description('revoke a key; requests with it are refused from now on')
    .argument('<id>', 'key id (key_…)')
    .addHelpText('after', '\nExample:\n  $ npx tessera keys revoke key_01M8…')
    .action(async (id: string) => {
      await withKeys(io.env, (k) => k.revoke(id));
      say(`revoked ${id}`);
    });

  const accounts = program.command('accounts').description('accounts: usage and quotas');

  accounts
    .command('set-quota')
    .description("set one account's limits on stored bytes and files (the defaults are TESSERA_DEFAULT_QUOTA_BYTES and _FILES)")
    .argument('<account>', 'account name')
    .option('--bytes <n>', 'most bytes the account may store: a number, "unlimited", or "default"')
    .option('--files <n>', 'most files the account may store: a number, "unlimited", or "default"')
    .addHelpText('after', '\nLowering a limit below the usage refuses new files; nothing stored is removed.\n\nExamples:\n  $ npx tessera accounts set-quota alice --bytes 10737418240 --files 100000\n  $ npx tessera accounts set-quota alice --bytes unlimited --files default')
    .action(async (name: string, options: { bytes?: string; files?: string }) => {
      if (options.bytes === undefined && options.files === undefined) throw new UsageError('give --bytes, --files or both');
      const usage = await withKeys(io.env, (_k, database) => new AccountsService(new AccountsRepository(database.db), quotaDefaults(io.env)).setQuota(name, options));
      say(describeUsage(usage));
    });

  accounts
    .command('show')
    .description("an account's usage and limits")
    .argument('<account>', 'account name')
    .option('--json', 'machine-readable output')
    .action(async (name: string, options: { json?: boolean }) => {
      const usage = await withKeys(io.env, (_k, database) => new AccountsService(new AccountsRepository(database.db), quotaDefaults(io.env)).usageByName(name));
      if (options.json) return say(JSON.stringify({ name: usage.name, usedBytes: usage.usedBytes, usedFiles: usage.usedFiles, limitBytes: usage.limitBytes ?? null, limitFiles: usage.limitFiles ?? null }, null, 2));
      say(describeUsage(usage));
    });

  program
    .command('migrate')
    .description('bring the database schema up to date (the server also does this at start)')
    .addHelpText('after', '\nExamples:\n  $ npx tessera migrate\n  $ DATABASE_URL=postgres://… npx tessera migrate')
    .action(async () => {
      const applied = await withKeys(io.env, (_k, database) => migrateToLatest(database.db as never, database.dialect));
      say(applied.length ? `applied ${applied.join(', ')}` : 'schema already up to date');
    });

  program
    .command('verify')
    .description('check every stored byte against its blobId, and the database against the quilts both ways')
    .option('--repair', 'do the safe repairs (remove stale temp files) and say what was done')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExit status: 0 when clean, 1 when data is missing or corrupt.\n\nExamples:\n  $ npx tessera verify\n  $ npx tessera verify --repair --json')
    .action(async (options: { repair?: boolean; json?: boolean }) => {
      const report = await withContext(io.env, (context) => context.maintenance.verify({ repair: options.repair }));
      if (options.json) say(JSON.stringify(report, null, 2));
      else {
        say(`checked ${report.quilts} quilts, ${report.patches} patches (${mib(report.bytesChecked)}) against ${report.blobs} blobs of ${report.files} files`);
        for (const problem of report.problems) say(`PROBLEM ${problem}`);
        say(report.problems.length === 0 ? 'no missing or corrupt data' : `${report.problems.length} problems: data is missing or corrupt`);
        say(`garbage: ${report.unreferencedQuilts} unreferenced quilts, ${report.unreferencedPatches} dead patches in live quilts, ${mib(report.reclaimableBytes)} reclaimable by \`tessera gc\``);
        if (report.inFlightQuilts) say(`${report.inFlightQuilts} recent quilts are not referenced yet (uploads in flight, or garbage once older than TESSERA_GC_MIN_AGE_MS)`);
        say(`${report.tempFiles} temp files`);
        for (const line of report.repaired) say(`repaired: ${line}`);
      }
      if (report.problems.length > 0) status.code = 1;
    });

  program
    .command('gc')
    .description('reclaim space: rewrite quilts that are mostly deleted files, remove quilts nothing points at')
    .option('--live-percent <n>', 'rewrite quilts with less than this share of live bytes (default: $TESSERA_GC_LIVE_PERCENT or 50)')
    .option('--dry-run', 'say what would be done; change nothing')
    .option('--verbose', 'a line per quilt rewritten or removed')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nSafe while the server runs, and after a crash at any moment.\n\nExamples:\n  $ npx tessera gc\n  $ npx tessera gc --live-percent 80 --dry-run')
    .action(async (options: { livePercent?: string; dryRun?: boolean; verbose?: boolean; json?: boolean }) => {
      const report = await withContext(io.env, (context) => {
        const percent = options.livePercent === undefined ? context.config.gcLivePercent : Number(options.livePercent);
        if (!(percent > 0 && percent <= 100)) throw new UsageError('--live-percent must be a number from 1 to 100');
        return context.database.exclusive(GC_LOCK, () =>
          context.maintenance.gc({ threshold: percent / 100, dryRun: options.dryRun, onQuilt: options.verbose ? (line) => say(line) : undefined }),
        );
      });
      if (!report) {
        say('another process (a replica\'s background gc, or another tessera gc) is collecting now; nothing done');
        return;
      }
      if (options.json) return say(JSON.stringify(report, null, 2));
      const verb = options.dryRun ? 'would ' : '';
      say(`examined ${report.quiltsExamined} quilts: ${verb}rewrite ${report.quiltsRewritten} (moving ${report.blobsMoved} blobs), ${verb}remove ${report.quiltsRemoved}; ${mib(report.bytesReclaimed)} ${options.dryRun ? 'reclaimable' : 'reclaimed'}`);
      for (const line of report.skipped) say(`skipped: ${line}`);
    });

  const s3 = program.command('s3').description('the S3 blob engine (TESSERA_STORE=s3)');

  s3.command('create-bucket')
    .description('create the bucket TESSERA_S3_BUCKET names, at TESSERA_S3_ENDPOINT (or AWS S3)')
    .addHelpText('after', '\nExample:\n  $ TESSERA_S3_ENDPOINT=http://127.0.0.1:7480 TESSERA_S3_BUCKET=tessera npx tessera s3 create-bucket')
    .action(async () => {
      const config = loadConfig(io.env);
      if (!config.s3.bucket) throw new UsageError('set TESSERA_S3_BUCKET to the name of the bucket to create');
      const { createBucket } = await import('../storage/s3-client.ts');
      say(await createBucket(config.s3));
    });

  const walrus = program.command('walrus').description('the Walrus blob engine (TESSERA_STORE=walrus)');

  walrus
    .command('rewrap')
    .description('wrap every file\'s data key with the current TESSERA_WALRUS_MASTER_KEY (after a rotation)')
    .addHelpText('after', '\nSet the new key in TESSERA_WALRUS_MASTER_KEY and the old one in TESSERA_WALRUS_PREVIOUS_MASTER_KEYS first.\n\nExample:\n  $ npx tessera walrus rewrap')
    .action(async () => {
      const config = loadConfig(io.env);
      if (!config.walrus.masterKey) throw new UsageError('set TESSERA_WALRUS_MASTER_KEY to the new master key (and the old one in TESSERA_WALRUS_PREVIOUS_MASTER_KEYS)');
      const [{ MasterKeys }, { BlobsRepository }] = await Promise.all([import('../storage/walrus-sealing.ts'), import('../db/repositories/blobs.repository.ts')]);
      const keys = new MasterKeys(config.walrus.masterKey, config.walrus.previousMasterKeys);
      const report = await withContext(io.env, (context) => rewrapSealedKeys(new BlobsRepository(context.database.db), keys));
      say(`${report.rewrapped} of ${report.sealed} wrapped keys moved to the current master key (${keys.currentId})`);
    });

  walrus
    .command('status')
    .description('the Walrus quilts by end epoch: live files, and what each has cost so far (FROST)')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExample:\n  $ npx tessera walrus status')
    .action(async (options: { json?: boolean }) => {
      const quilts = await withContext(io.env, (context) => walrusOf(context).status());
      if (options.json) return say(JSON.stringify(quilts, null, 2));
      say(`current epoch: ${quilts.currentEpoch ?? 'unknown (nothing stored yet)'}; ${quilts.quilts.length} quilts; cost so far ${quilts.totalCostFrost} FROST`);
      say('END EPOCH  LIVE FILES  LIVE BYTES  COST (FROST)  QUILT');
      for (const q of quilts.quilts) {
        say(`${String(q.endEpoch).padStart(9)}  ${String(q.liveBlobs).padStart(10)}  ${String(q.liveBytes).padStart(10)}  ${String(q.costFrost).padStart(12)}  ${q.quiltId}${q.liveBlobs === 0 ? '  (no live file: left to lapse)' : ''}`);
      }
    });

  walrus
    .command('renew')
    .description('renew now the quilts with live files that lapse within TESSERA_WALRUS_RENEW_WITHIN_EPOCHS (the server does it every TESSERA_WALRUS_RENEW_INTERVAL_MS)')
    .addHelpText('after', '\nExample:\n  $ npx tessera walrus renew')
    .action(async () => {
      const report = await withContext(io.env, (context) => context.database.exclusive(WALRUS_RENEW_LOCK, () => walrusOf(context).renewDue()));
      if (!report) return say('another process is renewing now; nothing done');
      for (const r of report.renewed) say(`renewed ${r.quiltId} until epoch ${r.endEpoch} (${r.costFrost} FROST)`);
      for (const failure of report.failed) say(`FAILED ${failure}`);
      say(`${report.renewed.length} quilts renewed, ${report.failed.length} failed`);
      if (report.failed.length > 0) status.code = 1;
    });

  program
    .command('serve')
    .description('run the server (the same as npm start)')
    .addHelpText('after', '\nExamples:\n  $ npx tessera serve\n  $ HOST=0.0.0.0 PORT=8080 npx tessera serve')
    .action(async () => {
      await import('../main.ts');
    });
  registerClientCommands(program, io);
  return program;
}

/**
 * Runs one command line (`argv` without node and the script) and answers its exit status:
 * 0 done, 1 failed (the server refused, data is corrupt), 2 a usage or settings mistake.
 * Errors are written to io.stderr as a sentence; anything unforeseen is thrown.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const status = { code: 0 };
  const fail = (code: number, message: string) => {
    io.stderr.write(`tessera: ${message}\n`);
    return code;
  };
  try {
    await buildProgram(io, status).parseAsync(argv, { from: 'user' });
    return status.code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof TesseraError) return fail(1, explain(error));
    if (error instanceof UsageError) return fail(2, error.message);
    if (error instanceof ConfigError) return fail(2, error.message);
    if (error instanceof AppError) return fail(1, error.message);
    throw error;
  }
}
