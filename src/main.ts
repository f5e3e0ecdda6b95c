import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { FastifyBaseLogger } from 'fastify';
import { createContext, type AppContext } from './context.ts';
import { buildApp } from './http/app.ts';
import { IDEMPOTENCY_PURGE_LOCK } from './services/edits.service.ts';
import { GC_LOCK } from './services/storage-maintenance.service.ts';
import { WALRUS_RENEW_LOCK } from './services/walrus.service.ts';
import { WEBHOOK_PURGE_LOCK } from './services/webhooks.service.ts';

// Large transfers allocate a buffer per socket read and per file read, outside the JavaScript
// heap. Node 24's V8 answers that external memory with full mark-compact collections, each as
// long as the whole live heap takes to mark (Node 20 freed the same buffers in cheap young-
// generation scavenges): 10 full collections per 256 MiB uploaded, a fifth to a quarter of the
// server's CPU in a large transfer. Counting external memory within V8's global heap limit
// instead leaves those buffers to the scavenges: 3 full collections where there were 37-50 for
// the same transfers, 0.72x the CPU, 60 MiB more peak RSS (docs/benchmarks.md, "The 1 GiB
// regression"). The limit still bounds the heap and its buffers together.
// The flag is V8 13's (Node 24); an older V8 would only warn of an unknown flag.
if (Number(process.versions.v8.split('.')[0]) >= 13) v8.setFlagsFromString('--external-memory-accounted-in-global-limit');

/** `npm start`: open the data, make sure a key exists, serve until SIGTERM/SIGINT. */
async function main(config: Config): Promise<void> {
  const context = await createContext(config);
  // The planner's thread reads its tables (most of a second) while the app is built, not while
  // the first prompt waits; listening waits for it, so a started server's memory includes it.
  const plannerStarted = context.planner.start?.();
  const app = await buildApp(context, {
    logger: { level: config.logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] },
  });
  const generated = await context.keys.bootstrap(config.bootstrapApiKey);
  if (generated) {
    app.log.warn(`no API key existed, so one was generated for account "default". It is shown only this once: ${generated.key}`);
  }
  // A thread that cannot start is said, not hidden: prompts will then fail until one does.
  await plannerStarted?.catch((error: unknown) => app.log.error(`the planner's thread did not start: ${(error as Error).message}`));
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
  // Every process delivers webhooks: a claim takes a delivery for one deliverer alone, so any
  // number of replicas share the work. Old deliveries are purged by one replica at a time.
  const stopDelivering = new AbortController();
  const deliverer = scheduleTurns(context, log, 'webhook delivery', undefined, config.webhooks.pollIntervalMs, async () => {
    const report = await context.webhooks.deliverDue(stopDelivering.signal);
    if (report.failed > 0) log.warn(`${report.failed} webhook deliveries failed for good (see GET /v1/webhooks/{id}/deliveries)`);
  });
  scheduleTurns(context, log, 'webhook purge', WEBHOOK_PURGE_LOCK, config.webhooks.purgeIntervalSeconds * 1000, async () => {
    const purged = await context.webhooks.purgeExpired();
    if (purged > 0) log.info(`purged ${purged} webhook deliveries past TESSERA_WEBHOOK_DELIVERY_TTL_SECONDS`);
  });
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
      // Attempts under way are recorded before the database closes, so none waits out its lease.
      stopDelivering.abort();
      await deliverer.stop();
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
 * turn. Replicas on one PostgreSQL take turns by an advisory lock, so only one works at a time;
 * without a lock, every process works (the work itself keeps them apart).
 */
function scheduleTurns(context: AppContext, log: FastifyBaseLogger, what: string, lock: string | undefined, intervalMs: number, work: () => Promise<void>): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const turn = async () => {
    try {
      if (lock === undefined) await work();
      else if ((await context.database.exclusive(lock, async () => (await work(), true))) === undefined) log.debug(`${what} skipped: another process holds it`);
    } catch (error) {
      log.error({ err: error }, `${what} failed`);
    } finally {
      running = undefined;
    }
  };
  const timer = setInterval(() => {
    if (!running) running = turn();
  }, intervalMs);
  timer.unref();
  return {
    /** No more turns; answers when the one under way (if any) has ended. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

try {
  await main(loadConfig());
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
