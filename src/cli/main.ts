import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.ts';
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

/**
 * `npx tessera …`. Operator commands (keys, migrate) read the same settings as the server
 * (TESSERA_DATA_DIR or DATABASE_URL) and work while it runs; the others talk to a running server
 * over HTTP (client-commands.ts).
 */
async function withKeys<T>(run: (keys: KeysService, database: Database) => Promise<T>): Promise<T> {
  const database = await openMigratedDatabase(loadConfig());
  try {
    return await run(new KeysService(new AccountsRepository(database.db), new ApiKeysRepository(database.db), new SpacesRepository(database.db)), database);
  } finally {
    await database.close();
  }
}

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

const program = new Command('tessera').description('Tessera: files and prompt-driven image edits, from the command line').exitOverride();

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
    const created = await withKeys((k) => k.create(options.account, { label: options.name, scope, spaceId: options.space }));
    const reach = created.spaceId ? `Space ${created.spaceId} only` : 'every Space';
    console.log(`created ${created.id} "${created.name}" for account ${created.accountName} (${created.accountId}): scope ${created.scope}, ${reach}`);
    console.log('the key is shown only this once; store it now:');
    console.log(created.key);
  });

keys
  .command('list')
  .description('list keys (never the keys themselves)')
  .option('--account <name>', 'only this account')
  .option('--json', 'machine-readable output')
  .addHelpText('after', '\nExamples:\n  $ npx tessera keys list\n  $ npx tessera keys list --account alice --json')
  .action(async (options: { account?: string; json?: boolean }) => {
    const rows = await withKeys((k) => k.list(options.account));
    if (options.json) {
      return console.log(
        JSON.stringify({ keys: rows.map((r) => ({ id: r.id, account: r.account_name, name: r.name, scope: r.scope, spaceId: r.space_id, createdAt: iso(r.created_at), revokedAt: r.revoked_at === null ? null : iso(r.revoked_at) })) }, null, 2),
      );
    }
    if (rows.length === 0) return console.log('no keys');
    console.log(['ID', 'ACCOUNT', 'NAME', 'SCOPE', 'SPACE', 'CREATED', 'REVOKED'].join('\t'));
    for (const row of rows) console.log([row.id, row.account_name, row.name, row.scope, row.space_id ?? '*', iso(row.created_at), iso(row.revoked_at)].join('\t'));
  });

keys
  .command('revoke')
  .description('revoke a key; requests with it are refused from now on')
  .argument('<id>', 'key id (key_…)')
  .addHelpText('after', '\nExample:\n  $ npx tessera keys revoke key_01M8…')
  .action(async (id: string) => {
    await withKeys((k) => k.revoke(id));
    console.log(`revoked ${id}`);
  });

const accounts = program.command('accounts').description('accounts: usage and quotas');

const describeUsage = (u: { name: string; usedBytes: number; usedFiles: number; limitBytes: number | undefined; limitFiles: number | undefined }) =>
  `${u.name}: ${u.usedBytes} of ${u.limitBytes ?? 'unlimited'} bytes, ${u.usedFiles} of ${u.limitFiles ?? 'unlimited'} files`;

accounts
  .command('set-quota')
  .description("set one account's limits on stored bytes and files (the defaults are TESSERA_DEFAULT_QUOTA_BYTES and _FILES)")
  .argument('<account>', 'account name')
  .option('--bytes <n>', 'most bytes the account may store: a number, "unlimited", or "default"')
  .option('--files <n>', 'most files the account may store: a number, "unlimited", or "default"')
  .addHelpText('after', '\nLowering a limit below the usage refuses new files; nothing stored is removed.\n\nExamples:\n  $ npx tessera accounts set-quota alice --bytes 10737418240 --files 100000\n  $ npx tessera accounts set-quota alice --bytes unlimited --files default')
  .action(async (name: string, options: { bytes?: string; files?: string }) => {
    if (options.bytes === undefined && options.files === undefined) throw new UsageError('give --bytes, --files or both');
    const usage = await withKeys((_k, database) => new AccountsService(new AccountsRepository(database.db), quotaDefaults()).setQuota(name, options));
    console.log(describeUsage(usage));
  });

accounts
  .command('show')
  .description("an account's usage and limits")
  .argument('<account>', 'account name')
  .option('--json', 'machine-readable output')
  .action(async (name: string, options: { json?: boolean }) => {
    const usage = await withKeys((_k, database) => new AccountsService(new AccountsRepository(database.db), quotaDefaults()).usageByName(name));
    if (options.json) return console.log(JSON.stringify({ name: usage.name, usedBytes: usage.usedBytes, usedFiles: usage.usedFiles, limitBytes: usage.limitBytes ?? null, limitFiles: usage.limitFiles ?? null }, null, 2));
    console.log(describeUsage(usage));
  });

function quotaDefaults() {
  const config = loadConfig();
  return { bytes: config.defaultQuotaBytes, files: config.defaultQuotaFiles };
}

program
  .command('migrate')
  .description('bring the database schema up to date (the server also does this at start)')
  .addHelpText('after', '\nExamples:\n  $ npx tessera migrate\n  $ DATABASE_URL=postgres://… npx tessera migrate')
  .action(async () => {
    const applied = await withKeys((_k, database) => migrateToLatest(database.db as never, database.dialect));
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'schema already up to date');
  });

async function withContext<T>(run: (context: AppContext) => Promise<T>): Promise<T> {
  const context = await createContext(loadConfig());
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

program
  .command('verify')
  .description('check every stored byte against its blobId, and the database against the quilts both ways')
  .option('--repair', 'do the safe repairs (remove stale temp files) and say what was done')
  .option('--json', 'machine-readable output')
  .addHelpText('after', '\nExit status: 0 when clean, 1 when data is missing or corrupt.\n\nExamples:\n  $ npx tessera verify\n  $ npx tessera verify --repair --json')
  .action(async (options: { repair?: boolean; json?: boolean }) => {
    const report = await withContext((context) => context.maintenance.verify({ repair: options.repair }));
    if (options.json) console.log(JSON.stringify(report, null, 2));
    else {
      console.log(`checked ${report.quilts} quilts, ${report.patches} patches (${mib(report.bytesChecked)}) against ${report.blobs} blobs of ${report.files} files`);
      for (const problem of report.problems) console.log(`PROBLEM ${problem}`);
      console.log(report.problems.length === 0 ? 'no missing or corrupt data' : `${report.problems.length} problems: data is missing or corrupt`);
      console.log(`garbage: ${report.unreferencedQuilts} unreferenced quilts, ${report.unreferencedPatches} dead patches in live quilts, ${mib(report.reclaimableBytes)} reclaimable by \`tessera gc\``);
      if (report.inFlightQuilts) console.log(`${report.inFlightQuilts} recent quilts are not referenced yet (uploads in flight, or garbage once older than TESSERA_GC_MIN_AGE_MS)`);
      console.log(`${report.tempFiles} temp files`);
      for (const line of report.repaired) console.log(`repaired: ${line}`);
    }
    if (report.problems.length > 0) process.exitCode = 1;
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
    const report = await withContext((context) => {
      const percent = options.livePercent === undefined ? context.config.gcLivePercent : Number(options.livePercent);
      if (!(percent > 0 && percent <= 100)) throw new UsageError('--live-percent must be a number from 1 to 100');
      return context.database.exclusive(GC_LOCK, () =>
        context.maintenance.gc({ threshold: percent / 100, dryRun: options.dryRun, onQuilt: options.verbose ? (line) => console.log(line) : undefined }),
      );
    });
    if (!report) {
      console.log('another process (a replica\'s background gc, or another tessera gc) is collecting now; nothing done');
      return;
    }
    if (options.json) return console.log(JSON.stringify(report, null, 2));
    const verb = options.dryRun ? 'would ' : '';
    console.log(`examined ${report.quiltsExamined} quilts: ${verb}rewrite ${report.quiltsRewritten} (moving ${report.blobsMoved} blobs), ${verb}remove ${report.quiltsRemoved}; ${mib(report.bytesReclaimed)} ${options.dryRun ? 'reclaimable' : 'reclaimed'}`);
    for (const line of report.skipped) console.log(`skipped: ${line}`);
  });

const s3 = program.command('s3').description('the S3 blob engine (TESSERA_STORE=s3)');

s3.command('create-bucket')
  .description('create the bucket TESSERA_S3_BUCKET names, at TESSERA_S3_ENDPOINT (or AWS S3)')
  .addHelpText('after', '\nExample:\n  $ TESSERA_S3_ENDPOINT=http://127.0.0.1:7480 TESSERA_S3_BUCKET=tessera npx tessera s3 create-bucket')
  .action(async () => {
    const config = loadConfig();
    if (!config.s3.bucket) throw new UsageError('set TESSERA_S3_BUCKET to the name of the bucket to create');
    const { createBucket } = await import('../storage/s3-client.ts');
    console.log(await createBucket(config.s3));
  });

const walrus = program.command('walrus').description('the Walrus blob engine (TESSERA_STORE=walrus)');

walrus
  .command('rewrap')
  .description('wrap every file\'s data key with the current TESSERA_WALRUS_MASTER_KEY (after a rotation)')
  .addHelpText('after', '\nSet the new key in TESSERA_WALRUS_MASTER_KEY and the old one in TESSERA_WALRUS_PREVIOUS_MASTER_KEYS first.\n\nExample:\n  $ npx tessera walrus rewrap')
  .action(async () => {
    const config = loadConfig();
    if (!config.walrus.masterKey) throw new UsageError('set TESSERA_WALRUS_MASTER_KEY to the new master key (and the old one in TESSERA_WALRUS_PREVIOUS_MASTER_KEYS)');
    const [{ MasterKeys }, { BlobsRepository }] = await Promise.all([import('../storage/walrus-sealing.ts'), import('../db/repositories/blobs.repository.ts')]);
    const keys = new MasterKeys(config.walrus.masterKey, config.walrus.previousMasterKeys);
    const report = await withContext((context) => rewrapSealedKeys(new BlobsRepository(context.database.db), keys));
    console.log(`${report.rewrapped} of ${report.sealed} wrapped keys moved to the current master key (${keys.currentId})`);
  });

/** The Walrus lifecycle of a context, or a usage error when the engine is another. */
function walrusOf(context: AppContext): WalrusLifecycle {
  if (!context.walrus) throw new UsageError(`TESSERA_STORE is ${context.config.store}; these commands are for TESSERA_STORE=walrus`);
  return context.walrus;
}

walrus
  .command('status')
  .description('the Walrus quilts by end epoch: live files, and what each has cost so far (FROST)')
  .option('--json', 'machine-readable output')
  .addHelpText('after', '\nExample:\n  $ npx tessera walrus status')
  .action(async (options: { json?: boolean }) => {
    const status = await withContext((context) => walrusOf(context).status());
    if (options.json) return console.log(JSON.stringify(status, null, 2));
    console.log(`current epoch: ${status.currentEpoch ?? 'unknown (nothing stored yet)'}; ${status.quilts.length} quilts; cost so far ${status.totalCostFrost} FROST`);
    console.log('END EPOCH  LIVE FILES  LIVE BYTES  COST (FROST)  QUILT');
    for (const q of status.quilts) {
      console.log(`${String(q.endEpoch).padStart(9)}  ${String(q.liveBlobs).padStart(10)}  ${String(q.liveBytes).padStart(10)}  ${String(q.costFrost).padStart(12)}  ${q.quiltId}${q.liveBlobs === 0 ? '  (no live file: left to lapse)' : ''}`);
    }
  });

walrus
  .command('renew')
  .description('renew now the quilts with live files that lapse within TESSERA_WALRUS_RENEW_WITHIN_EPOCHS (the server does it every TESSERA_WALRUS_RENEW_INTERVAL_MS)')
  .addHelpText('after', '\nExample:\n  $ npx tessera walrus renew')
  .action(async () => {
    const report = await withContext((context) => context.database.exclusive(WALRUS_RENEW_LOCK, () => walrusOf(context).renewDue()));
    if (!report) return console.log('another process is renewing now; nothing done');
    for (const r of report.renewed) console.log(`renewed ${r.quiltId} until epoch ${r.endEpoch} (${r.costFrost} FROST)`);
    for (const failure of report.failed) console.log(`FAILED ${failure}`);
    console.log(`${report.renewed.length} quilts renewed, ${report.failed.length} failed`);
    if (report.failed.length > 0) process.exitCode = 1;
  });

program
  .command('serve')
  .description('run the server (the same as npm start)')
  .addHelpText('after', '\nExamples:\n  $ npx tessera serve\n  $ HOST=0.0.0.0 PORT=8080 npx tessera serve')
  .action(async () => {
    await import('../main.ts');
  });

registerClientCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  if (error instanceof TesseraError) {
    console.error(`tessera: ${explain(error)}`);
    process.exit(1);
  }
  if (error instanceof UsageError) {
    console.error(`tessera: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof AppError || error instanceof ConfigError) {
    console.error(`tessera: ${error.message}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
  throw error;
}
