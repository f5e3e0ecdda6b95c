import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.ts';
import { openMigratedDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { AccountsRepository } from '../db/repositories/accounts.repository.ts';
import { ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';
import { AppError } from '../errors.ts';
import { KeysService } from '../services/keys.service.ts';
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
    return await run(new KeysService(new AccountsRepository(database.db), new ApiKeysRepository(database.db)), database);
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
  .addHelpText('after', '\nExamples:\n  $ npx tessera keys create --account alice\n  $ DATABASE_URL=postgres://… npx tessera keys create --account alice --name laptop')
  .action(async (options: { account: string; name?: string }) => {
    const created = await withKeys((k) => k.create(options.account, options.name));
    console.log(`created ${created.id} "${created.name}" for account ${created.accountName} (${created.accountId})`);
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
    if (options.json) return console.log(JSON.stringify({ keys: rows.map((r) => ({ id: r.id, account: r.account_name, name: r.name, createdAt: iso(r.created_at), revokedAt: r.revoked_at === null ? null : iso(r.revoked_at) })) }, null, 2));
    if (rows.length === 0) return console.log('no keys');
    console.log(['ID', 'ACCOUNT', 'NAME', 'CREATED', 'REVOKED'].join('\t'));
    for (const row of rows) console.log([row.id, row.account_name, row.name, iso(row.created_at), iso(row.revoked_at)].join('\t'));
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

program
  .command('migrate')
  .description('bring the database schema up to date (the server also does this at start)')
  .addHelpText('after', '\nExamples:\n  $ npx tessera migrate\n  $ DATABASE_URL=postgres://… npx tessera migrate')
  .action(async () => {
    const applied = await withKeys((_k, database) => migrateToLatest(database.db as never, database.dialect));
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'schema already up to date');
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
