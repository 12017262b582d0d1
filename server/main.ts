import { readConfig } from './config/app-config.ts';
import { bootstrap } from './bootstrap.ts';
import { SchemaLoadError } from '../engine/schema/schema-loader.ts';

const log = (msg: string) => console.log(`[backoffice] ${msg}`);

async function main(): Promise<void> {
  const config = readConfig();
  const started = await bootstrap(config, { log });
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
