import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { join } from 'node:path';
import type { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import type { ReportDef } from '../engine/reports/report-types.ts';
import type { Database } from './db/dialect-adapter.ts';
import { EntityService } from './crud/entity-service.ts';
import { installErrorHandler } from './errors/error-handler.ts';
import { AppError } from './errors/app-error.ts';
import { PermissionPolicy } from './auth/permission-policy.ts';
import { Authenticator, contextOf } from './auth/authenticator.ts';
import { authEntities } from './auth/auth-entities.ts';
import { TokenService } from './auth/token-service.ts';
import { installRequestGuard } from './auth/request-guard.ts';
import { MemorySignInLimiter, RedisSignInLimiter, type SignInLimits } from './auth/sign-in-limiter.ts';
import { DEFAULT_LOG_N } from './auth/password-hasher.ts';
import { MemoryImportJobs, RedisImportJobs, type ImportJobStore } from './imports/import-jobs.ts';
import { FallbackImportJobs, FallbackSignInLimiter } from './ops/redis-fallbacks.ts';
import { closeRedis, openRedis } from './ops/redis-link.ts';
import { opsServerOptions } from './ops/logging.ts';
import { installOps } from './ops/ops-routes.ts';
import { registerApiDocs } from './openapi/api-docs.ts';
import { linkRealtime } from './realtime/realtime-link.ts';
import type { Realtime } from './realtime/socket-server.ts';
import { dirStorage, type FileStorage } from './files/file-storage.ts';
import { readAdminOptions, type AdminServices } from './admin/admin-routes.ts';
import { ReportCatalogue, readReportDir } from './reports/report-catalogue.ts';
import type { MailSettings } from './mail/mailer.ts';
import { readEtaxSettings, type EtaxSettings } from './etax/etax-settings.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { FEATURES, type FeatureContext } from './features.ts';

export interface AppOptions {
  db: Database;
  registry: SchemaRegistry;
  jwtSecret: Uint8Array;
  /** Logger options, or a ready pino logger (server/ops/logging.ts createLogger). */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Largest accepted JSON body in bytes. */
  bodyLimit?: number;
  tokenTtlSeconds?: number;
  /** How long a principal is reused without reading the database (5 s); tests lengthen it to prove invalidations reach peers. */
  principalCacheMs?: number;
  /** log2 of scrypt's N; tests lower it to stay fast, production keeps OWASP's 17. */
  hashLogN?: number;
  limiter?: SignInLimits;
  redisUrl?: string;
  /** Channel prefix in Redis; deployments sharing one Redis need different keys. */
  redisKey?: string;
  /** Where uploads are kept, and the largest accepted file. */
  uploadDir: string;
  uploadMaxBytes?: number;
  /** Where upload contents live when not in uploadDir (an S3-compatible bucket: server/files/file-storage.ts). */
  uploadStore?: FileStorage;
  /** Fastify's trustProxy: behind a reverse proxy, the client address comes from X-Forwarded-For (sign-in limits and audit use it). */
  trustProxy?: boolean | number | string;
  /** How often to look for alerts that became due (ms). */
  alertPollMs?: number;
  /** Backups (default: BACKUP_DIR, else a "backups" folder beside the uploads). */
  backupDir?: string;
  /** Origins besides the app's own that may open sockets (a separately hosted front end). */
  allowedOrigins?: string[];
  /** SMTP for emailing documents; without it the email route answers MAIL_NOT_CONFIGURED. */
  mail?: MailSettings;
  /** The report files (schemas/reports); read from the project's schemas/reports folder when not given. */
  reports?: ReportDef[];
  /** e-Tax signing certificate and the Revenue Department's e-mail address (default: read from ETAX_* in the environment). */
  etax?: EtaxSettings;
  /** Registers the web app's routes (static files, SPA fallback) after the API. */
  web?: (app: FastifyInstance) => Promise<void> | void;
}

export interface BuiltApp {
  app: FastifyInstance;
  service: EntityService;
  policy: PermissionPolicy;
  auth: Authenticator;
  realtime: Realtime;
  admin: AdminServices;
}

/**
 * Builds the whole HTTP application without listening, so tests drive it with inject(): the core
 * (errors, headers, health, the token guard, API docs, Redis), then the features of server/features.ts
 * in their order, each its listeners and then its routes, then the web app and the sockets.
 */
export async function buildApp(opts: AppOptions): Promise<BuiltApp> {
  const app = Fastify({
    ...opsServerOptions(opts.logger),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // a hop count is valid at runtime (Fastify docs), though not in its type
    trustProxy: (opts.trustProxy ?? false) as boolean,
    // failures before routing (a malformed URL, bad percent-encoding) answer in the same envelope as everything else
    frameworkErrors: (error, request, reply) => {
      const e = new AppError('BAD_REQUEST', `The request could not be read: ${error.message}`);
      void (reply as unknown as FastifyReply).status(e.status).header('x-request-id', request.id).send(e.toBody());
    },
  });
  installErrorHandler(app);
  await registerSecurityHeaders(app);
  // the realtime link is made further down; readiness asks it once it exists
  const links = { realtime: () => true };
  await installOps(app, { db: opts.db, registry: opts.registry, redisUrl: opts.redisUrl, redisLinked: () => links.realtime() });
  // bodies are JSON (and multipart for uploads); plain text would reach the validator as a string
  app.removeContentTypeParser('text/plain');
  const policy = new PermissionPolicy(opts.registry);
  const service = new EntityService(opts.db, opts.registry, policy);
  const auth = new Authenticator(opts.db, authEntities(opts.registry), new TokenService(opts.jwtSecret, opts.tokenTtlSeconds ?? 8 * 3600), opts.principalCacheMs);
  installRequestGuard(app, auth, opts.db.kysely);
  await registerApiDocs(app, opts.registry);

  let limiter = opts.limiter;
  let importJobs: ImportJobStore = new MemoryImportJobs();
  if (opts.redisUrl) {
    // with several instances, failed sign-ins are counted in one place, and an import's progress
    // can be asked of any instance; loaded only when configured: the redis package takes over a second to import.
    // Its commands fail at once while Redis is down, and each user falls back to this instance (server/ops/redis-fallbacks.ts)
    const redis = await openRedis(opts.redisUrl, { role: 'sign-in limits and import jobs', log: app.log, failFast: true });
    app.addHook('onClose', async () => { await closeRedis(redis); });
    limiter ??= new FallbackSignInLimiter(new RedisSignInLimiter(redis as never, opts.redisKey ?? 'backoffice'), app.log);
    importJobs = new FallbackImportJobs(new RedisImportJobs(redis as never, opts.redisKey ?? 'backoffice'), app.log);
  }
  const c: FeatureContext = {
    app, service, contextOf, policy, auth, importJobs, mail: opts.mail, provided: {},
    limiter: limiter ?? new MemorySignInLimiter(), hashLogN: opts.hashLogN ?? DEFAULT_LOG_N,
    reports: new ReportCatalogue(opts.reports ?? readReportDir(join(import.meta.dirname, '..', 'schemas', 'reports'), opts.registry)),
    uploads: { dir: opts.uploadDir, storage: opts.uploadStore, maxBytes: opts.uploadMaxBytes ?? 20 * 1024 * 1024 },
    adminOptions: { ...readAdminOptions(process.env, join(opts.uploadDir, '..', 'backups')), ...(opts.backupDir ? { backupDir: opts.backupDir } : {}) },
    printFiles: { db: opts.db, storage: opts.uploadStore ?? dirStorage(opts.uploadDir) },
    etax: opts.etax ?? readEtaxSettings(process.env),
  };
  for (const feature of FEATURES) {
    for (const listener of feature.listeners ?? []) listener.install(service, c);
    await feature.routes?.(c);
  }
  if (opts.web) await opts.web(app);
  const realtime = await linkRealtime(app, service, auth, opts.registry, opts, links);
  return { app, service, policy, auth, realtime, admin: c.provided.admin! };
}
