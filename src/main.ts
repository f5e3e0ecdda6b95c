import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { FastifyBaseLogger } from 'fastify';
import { createContext, type AppContext } from './context.ts';
import { buildApp } from './http/app.ts';
import { GC_LOCK } from './services/storage-maintenance.service.ts';
import { WALRUS_RENEW_LOCK, type WalrusLifecycle } from './services/walrus.service.ts';

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

  if (config.gcIntervalMs > 0) scheduleGc(context, app.log, config);
  if (context.walrus && config.walrus.renewIntervalMs > 0) scheduleRenewal(context.walrus, context, app.log, config.walrus.renewIntervalMs);

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
 * The optional background gc: one run at a time, each logged; a failure waits for the next turn.
 * Replicas on one PostgreSQL take turns by an advisory lock, so only one collects at a time.
 */
function scheduleGc(context: AppContext, log: FastifyBaseLogger, config: Config): void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const report = await context.database.exclusive(GC_LOCK, () => context.maintenance.gc({ threshold: config.gcLivePercent / 100 }));
      if (!report) log.debug('gc skipped: another process is collecting');
      else if (report.quiltsRewritten || report.quiltsRemoved) log.info({ gc: report }, 'gc reclaimed space');
    } catch (error) {
      log.error({ err: error }, 'gc failed');
    } finally {
      running = false;
    }
  }, config.gcIntervalMs);
  timer.unref();
}

/** The Walrus renewal job: quilts with live files are renewed before they lapse; replicas take turns. */
function scheduleRenewal(lifecycle: WalrusLifecycle, context: AppContext, log: FastifyBaseLogger, intervalMs: number): void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const report = await context.database.exclusive(WALRUS_RENEW_LOCK, () => lifecycle.renewDue());
      if (report?.renewed.length) log.info({ renewed: report.renewed }, 'Walrus quilts renewed');
      for (const failure of report?.failed ?? []) log.error(`Walrus renewal failed: ${failure}`);
    } catch (error) {
      log.error({ err: error }, 'Walrus renewal failed');
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
