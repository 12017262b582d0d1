import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { loadJwtSecret } from './jwt-secret.ts';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../../engine/documents/business-time.ts';

function timeZone(v: string | undefined): string {
  if (!v) return DEFAULT_TIME_ZONE;
  if (!isTimeZone(v)) throw new Error(`BUSINESS_TIME_ZONE must be an IANA time zone such as Asia/Bangkok, not "${v}"`);
  return v;
}
import type { S3Settings } from './s3-settings.ts';

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
  /** Origins besides the app's own that may open sockets. */
  allowedOrigins: string[];
  uploadMaxBytes: number;
  /** IANA time zone of the business: document dates, numbering periods and "today". */
  businessTimeZone: string;
  /** Upload contents: a directory (shared by every instance when there are several), or an S3-compatible bucket. */
  uploadDir: string;
  uploadStore: { kind: 'dir' } | ({ kind: 's3' } & S3Settings);
  /** Fastify trustProxy: false, true, a hop count, or addresses/CIDRs of the proxies. */
  trustProxy: boolean | number | string;
  /** How long a shutdown waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** Server processes sharing the port (SERVER_WORKERS, default 1). */
  serverWorkers: number;
  /** Both SMTP_URL and MAIL_FROM set, or neither (email then answers MAIL_NOT_CONFIGURED). */
  mail?: { smtpUrl: string; from: string };
}

/** Where the database is: DATABASE_URL, else the SQLite file in DATA_DIR. */
export function databaseUrlOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL ?? resolve(env.DATA_DIR ?? 'data', 'backoffice.sqlite');
}

/** The SQLite path a database URL names (a file path, sqlite:path, or :memory:); null for PostgreSQL. */
export function sqlitePathOf(url: string): string | null {
  return /^postgres(ql)?:\/\//.test(url) ? null : url.replace(/^sqlite:(\/\/)?/, '');
}

/** The database for an operator's message: a SQLite file's path, or a PostgreSQL URL without its password. */
export function describeDatabase(url: string): string {
  const file = sqlitePathOf(url);
  if (file !== null) return file;
  const u = new URL(url);
  u.password = '';
  return u.toString();
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
    databaseUrl: databaseUrlOf(env),
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
    businessTimeZone: timeZone(env.BUSINESS_TIME_ZONE),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    uploadMaxBytes: positive(env.UPLOAD_MAX_MB, 20, 'UPLOAD_MAX_MB') * 1024 * 1024,
    uploadDir: resolve(env.UPLOAD_DIR || resolve(dataDir, 'uploads')),
    uploadStore: uploadStore(env),
    trustProxy: trustProxy(env.TRUST_PROXY),
    shutdownTimeoutMs: positive(env.SHUTDOWN_TIMEOUT_MS, 10_000, 'SHUTDOWN_TIMEOUT_MS'),
    mail: mailConfig(env),
    serverWorkers: serverWorkers(env),
  };
}

/**
 * SERVER_WORKERS: server processes on this machine sharing one port (node:cluster), a number or
 * "auto" (one per core). More than one needs Redis: the workers are instances like any other and
 * share sign-outs, socket events, sign-in counts and import jobs through it.
 */
function serverWorkers(env: NodeJS.ProcessEnv): number {
  const raw = env.SERVER_WORKERS || '1';
  const n = raw === 'auto' ? availableParallelism() : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`SERVER_WORKERS must be a whole number from 1 to 64 or "auto", not "${raw}"`);
  if (n > 1 && !env.REDIS_URL) throw new Error(`SERVER_WORKERS=${raw} needs REDIS_URL: several server processes share sign-outs, socket events, sign-in counts and import jobs through Redis`);
  return n;
}

function mailConfig(env: NodeJS.ProcessEnv): AppConfig['mail'] {
  const smtpUrl = env.SMTP_URL || undefined;
  const from = env.MAIL_FROM || undefined;
  if (!smtpUrl && !from) return undefined;
  if (!smtpUrl || !from) throw new Error('SMTP_URL and MAIL_FROM are set together: one without the other cannot send email');
  if (!/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return { smtpUrl, from };
}

/** A count from the environment: `fallback` when unset or empty, refused (naming the variable) unless a whole number ≥ 1. */
export function positive(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return Number(raw);
}

/** A size or count from the environment that may be 0: `fallback` when unset or empty, refused (naming the variable) unless a whole number ≥ 0. */
export function wholeNumber(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, not "${raw}"`);
  return Number(raw);
}

function uploadStore(env: NodeJS.ProcessEnv): AppConfig['uploadStore'] {
  const kind = env.UPLOAD_STORE || 'dir';
  if (kind === 'dir') return { kind };
  if (kind !== 's3') throw new Error(`UPLOAD_STORE must be "dir" or "s3", not "${kind}"`);
  if (!env.S3_BUCKET) throw new Error('UPLOAD_STORE=s3 needs S3_BUCKET');
  const endpoint = env.S3_ENDPOINT || undefined;
  return {
    kind, bucket: env.S3_BUCKET, endpoint, region: env.S3_REGION || env.AWS_REGION || 'us-east-1', prefix: env.S3_PREFIX ?? '',
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : endpoint !== undefined,
  };
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}
