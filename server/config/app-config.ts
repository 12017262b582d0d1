import { resolve } from 'node:path';

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  seed: 'demo' | 'none';
  dataDir: string;
  schemasDir: string;
  logLevel: string;
}

/** Reads the environment once; README.md lists every variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  const seed = env.SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new Error(`SEED must be "demo" or "none", not "${seed}"`);
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL ?? resolve(dataDir, 'backoffice.sqlite'),
    seed,
    dataDir,
    schemasDir: resolve(env.SCHEMAS_DIR ?? 'schemas'),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
