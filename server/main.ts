import { readConfig } from './config/app-config.ts';
import { bootstrap } from './bootstrap.ts';
import { SchemaLoadError } from '../engine/schema/schema-loader.ts';
import { resolve } from 'node:path';
import { ensureWebBuilt, registerWebStatic } from './web/web-static.ts';

const log = (msg: string) => console.log(`[backoffice] ${msg}`);

async function main(): Promise<void> {
  const config = readConfig();
  const dist = await ensureWebBuilt(resolve(import.meta.dirname, '..'), log);
  const started = await bootstrap(config, { log, web: (app) => registerWebStatic(app, dist) });
  const close = async () => {
    await started.app.close();
    await started.db.close();
    process.exit(0);
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await started.app.listen({ port: config.port, host: config.host });
  log(`serving on http://${config.host}:${config.port} (database: ${started.db.adapter.name})`);
}

main().catch((err) => {
  if (err instanceof SchemaLoadError) {
    console.error(`[backoffice] cannot start: ${err.message}`);
  } else {
    console.error('[backoffice] cannot start:', err);
  }
  process.exit(1);
});
