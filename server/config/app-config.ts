import { resolve } from 'node:path';
import { loadJwtSecret } from '../auth/token-service.ts';

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  seed: 'demo' | 'none';
  dataDir: string;
  schemasDir: string;
  logLevel: string;
  jwtSecret: Uint8Array;
  tokenTtlSeconds: number;
  adminPassword?: string;
  demoPassword?: string;
  redisUrl?: string;
  redisKey: string;
  uploadMaxBytes: number;
  /** Both SMTP_URL and MAIL_FROM set, or neither (email then answers MAIL_NOT_CONFIGURED). */
  mail?: { smtpUrl: string; from: string };
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
    jwtSecret: loadJwtSecret(env, dataDir),
    tokenTtlSeconds: positive(env.TOKEN_TTL_SECONDS, 8 * 3600, 'TOKEN_TTL_SECONDS'),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    demoPassword: env.DEMO_PASSWORD || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKey: env.REDIS_KEY || 'backoffice',
    uploadMaxBytes: positive(env.UPLOAD_MAX_MB, 20, 'UPLOAD_MAX_MB') * 1024 * 1024,
    mail: mailConfig(env),
  };
}

function mailConfig(env: NodeJS.ProcessEnv): AppConfig['mail'] {
  const smtpUrl = env.SMTP_URL || undefined;
  const from = env.MAIL_FROM || undefined;
  if (!smtpUrl && !from) return undefined;
  if (!smtpUrl || !from) throw new Error('SMTP_URL and MAIL_FROM are set together: one without the other cannot send email');
  if (!/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return { smtpUrl, from };
}

function positive(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return Number(raw);
}
