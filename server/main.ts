import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readConfig } from './config/app-config.ts';
import { SchemaLoadError } from '../engine/schema/schema-loader.ts';
import { createLogger } from './ops/logging.ts';
import type { DemoSeeder } from './bootstrap.ts';

export interface MainOptions {
  /** Loads the demo data's loader (seed/demo-seeder.ts) when SEED=demo: handed over by the process's entry (scripts/server-main.ts), so server/ never imports seed/. */
  demoSeeder?: () => Promise<DemoSeeder>;
}

/** The project folder: the nearest one up with a package.json (server/ when run from source, build/server/ when compiled). */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

async function main(opts: MainOptions): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel === 'silent' ? 'silent' : config.logLevel);
  if (config.serverWorkers > 1 && cluster.isPrimary && process.env.BACKOFFICE_PREPARE_ONLY !== '1') {
    const { runPrimary } = await import('./ops/server-workers.ts');
    return runPrimary(config.serverWorkers, logger);
  }
  // loaded here, not at the top: the primary of several workers needs none of the server
  const [{ bootstrap }, { registerWebStatic }, { stopOnSignals }] = await Promise.all([import('./bootstrap.ts'), import('./web/web-static.ts'), import('./ops/shutdown.ts')]);
  const log = (msg: string) => logger.info(msg);
  const root = projectRoot(import.meta.dirname);
  const dist = join(root, 'web', 'dist');
  // the web app is built before the server starts (scripts/build.mjs: npm start, npm run build, npm run start:dev);
  // the server serves web/dist as it finds it and never builds it
  if (!existsSync(join(dist, 'index.html'))) {
    logger.warn('web/dist has no build: serving the API only (npm run build builds the web app)');
  }
  // the demo data's loader comes from the process's entry (scripts/server-main.ts), so server/ does not import seed/
  const seeder = config.seed === 'demo' ? await opts.demoSeeder?.() : undefined;
  const started = await bootstrap(config, { log, logger, web: (app) => registerWebStatic(app, dist), seeder });
  if (process.env.BACKOFFICE_PREPARE_ONLY === '1') {
    // npm start's first start: tables, accounts and demo data made here, in a process that then exits (scripts/start.mjs)
    await started.app.close();
    await started.db.close();
    return;
  }
  const { installLastResort } = await import('./ops/last-resort.ts');
  installLastResort(started.app.log, stopOnSignals(started, started.app.log, config.shutdownTimeoutMs));
  if (process.env.BACKOFFICE_SUPERVISED === '1' && cluster.isPrimary && process.channel) {
    // npm start's supervisor (scripts/supervise.mjs) gone, even by kill -9: stop as if told to
    process.channel.unref();
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  }
  const address = await started.app.listen({ port: config.port, host: config.host });
  log(`serving on ${address} (database: ${started.db.adapter.name})`);
}

/** Runs the server as a process: a start refused for a reason the operator can act on prints its message and exits 1. */
export function runServer(opts: MainOptions = {}): void {
  main(opts).catch((err) => {
    if (err instanceof SchemaLoadError || (err instanceof Error && err.name === 'StartRefusedError')) {
      console.error(`[backoffice] cannot start: ${err.message}`);
    } else {
      console.error('[backoffice] cannot start:', err);
    }
    process.exit(1);
  });
}
