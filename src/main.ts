import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { FastifyBaseLogger } from 'fastify';
import { createContext, type AppContext } from './context.ts';
import { buildApp } from './http/app.ts';
import { IDEMPOTENCY_PURGE_LOCK } from './services/edits.service.ts';
import { GC_LOCK } from './services/storage-maintenance.service.ts';
import { WALRUS_RENEW_LOCK } from './services/walrus.service.ts';

/** `npm start`: open the data, make sure a key exists, serve until SIGTERM/SIGINT. */
async function main(config: Config): Promise<void> {
  const context = await createContext(config);
  const app = await buildApp(context, {
    logger: { level: config.logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] },
  });
  const generated = await context.keys.bootstrap(config.bootstrapApiKey);
  if (generated) {
    app.log.warn(`no API key existed, so one was generated for account "default". It is shown only this once: ${generated.key}`);
  }
  const address = await app.listen({ host: config.host, port: config.port });
  const consoleServed = config.consoleDir !== undefined && fs.existsSync(path.join(config.consoleDir, 'index.html'));
  app.log.info(
    { database: context.database.location, dataDir: config.dataDir },
    consoleServed ? `Tessera listening on ${address} (web console at ${address}/, API docs at ${address}/docs)` : `Tessera listening on ${address} (API docs at ${address}/docs)`,
  );

  const log = app.log;
  if (config.gcIntervalMs > 0) {
    scheduleTurns(context, log, 'gc', GC_LOCK, config.gcIntervalMs, async () => {
      const report = await context.maintenance.gc({ threshold: config.gcLivePercent / 100 });
      if (report.quiltsRewritten || report.quiltsRemoved) log.info({ gc: report }, 'gc reclaimed space');
    });
  }
  scheduleTurns(context, log, 'idempotency purge', IDEMPOTENCY_PURGE_LOCK, config.idempotencyPurgeIntervalSeconds * 1000, async () => {
    const purged = await context.edits.purgeExpiredIdempotencyKeys();
    if (purged > 0) log.info(`purged ${purged} expired Idempotency-Keys`);
    const jobs = await context.editJobs.purgeExpired();
    if (jobs > 0) log.info(`purged ${jobs} expired edit jobs`);
  });
  // Edit jobs (Prefer: respond-async) of any replica are run by whichever claims them first.
  context.editJobs.start(log);
  const walrus = context.walrus;
  if (walrus && config.walrus.renewIntervalMs > 0) {
    // Quilts with live files are renewed before they lapse.
    scheduleTurns(context, log, 'Walrus renewal', WALRUS_RENEW_LOCK, config.walrus.renewIntervalMs, async () => {
      const report = await walrus.renewDue();
      if (report.renewed.length) log.info({ renewed: report.renewed }, 'Walrus quilts renewed');
      for (const failure of report.failed) log.error(`Walrus renewal failed: ${failure}`);
    });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: finishing in-flight requests (at most ${config.shutdownTimeoutMs} ms)`);
    const deadline = setTimeout(() => {
      app.log.error('shutdown timed out; exiting with requests still open');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    try {
      await app.close();
      await context.close();
      clearTimeout(deadline);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * Background work every so often: one run at a time, a failure logged and retried at the next
 * turn. Replicas on one PostgreSQL take turns by an advisory lock, so only one works at a time.
 */
function scheduleTurns(context: AppContext, log: FastifyBaseLogger, what: string, lock: string, intervalMs: number, work: () => Promise<void>): void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      if ((await context.database.exclusive(lock, async () => (await work(), true))) === undefined) log.debug(`${what} skipped: another process holds it`);
    } catch (error) {
      log.error({ err: error }, `${what} failed`);
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
}

try {
  await main(loadConfig());
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
