import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import type { Database } from './db/dialect-adapter.ts';
import { EntityService } from './crud/entity-service.ts';
import { entitiesNamed } from './crud/write-events.ts';
import { registerEntityRoutes } from './crud/crud-routes.ts';
import { registerExportRoute } from './crud/export-route.ts';
import { registerListAliasRoutes } from './crud/list-alias-routes.ts';
import { registerMetaRoutes } from './meta/meta-routes.ts';
import { registerPageSettingRoutes } from './meta/page-setting-routes.ts';
import { buildOpenApi } from './openapi/openapi-builder.ts';
import { installErrorHandler } from './errors/error-handler.ts';
import { AppError } from './errors/app-error.ts';
import { PermissionPolicy } from './auth/permission-policy.ts';
import { Authenticator, contextOf } from './auth/authenticator.ts';
import { TokenService } from './auth/token-service.ts';
import { MemorySignInLimiter, RedisSignInLimiter, type SignInLimits } from './auth/sign-in-limiter.ts';
import { MemoryImportJobs, RedisImportJobs, type ImportJobStore } from './imports/import-jobs.ts';
import { FallbackImportJobs, FallbackSignInLimiter } from './ops/redis-fallbacks.ts';
import { closeRedis, openRedis } from './ops/redis-link.ts';
import { join } from 'node:path';
import { registerAuthRoutes } from './auth/auth-routes.ts';
import { DEFAULT_LOG_N } from './auth/password-hasher.ts';
import { auditWrites, writeAudit } from './audit/audit-log.ts';
import { registerSystemLogRoutes } from './audit/system-log-routes.ts';
import { registerSessionRoutes } from './session/session-routes.ts';
import { principalOf } from './auth/principal.ts';
import { attachRealtime, SCHEMA_CHANGED, type Realtime } from './realtime/socket-server.ts';
import { installAlertNotifier } from './realtime/alert-notifier.ts';
import { installSettingsNotifier } from './realtime/settings-notifier.ts';
import { registerFileRoutes } from './files/file-routes.ts';
import { dirStorage } from './files/file-storage.ts';
import { readAdminOptions, registerAdminRoutes, type AdminServices } from './admin/admin-routes.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { installDocumentPosting } from './documents/document-posting.ts';
import { installCancelGuard } from './documents/cancel-guard.ts';
import { installClosedBooks } from './documents/closed-books.ts';
import { installSourcesWhtRate } from './documents/sources-wht-rate.ts';
import { installDefaultCompany, registerNewRecordDefaults } from './documents/default-company.ts';
import { installDocumentFills } from './documents/document-fills.ts';
import { installDocumentLinkSpread } from './documents/document-link-spread.ts';
import { registerFillRoutes } from './documents/fill-routes.ts';
import { computeAmounts, installTotalsCheck } from './documents/document-amounts.ts';
import { installWithholdingAmounts } from './documents/withholding-amounts.ts';
import { installTaxInvoiceRules } from './documents/tax-invoice-rules.ts';
import { installTaxInvoiceSupply } from './documents/tax-invoice-supply.ts';
import { installNoteCorrects } from './documents/note-corrects.ts';
import { registerCollectionSummary } from './reports/collection-summary.ts';
import { registerReportRoutes } from './reports/report-routes.ts';
import { registerTextExportRoute } from './reports/text-export-route.ts';
import { ReportCatalogue, readReportDir } from './reports/report-catalogue.ts';
import type { ReportDef } from '../engine/reports/report-types.ts';
import { registerDocumentRoutes } from './documents/document-routes.ts';
import { registerDocumentChainRoutes } from './documents/document-chain-routes.ts';
import type { FileStorage } from './files/file-storage.ts';
import { opsServerOptions } from './ops/logging.ts';
import { installOps } from './ops/ops-routes.ts';
import { installStock } from './stock/stock-routes.ts';
import { installLedger } from './ledger/ledger-feature.ts';
import { parseId, registerPrintRoutes } from './print/print-routes.ts';
import { installPromptPayIdCheck, registerPromptPayRoutes } from './print/promptpay-qr.ts';
import { registerPortalPdfRoute } from './print/portal-pdf.ts';
import { registerEmailRoutes } from './mail/email-routes.ts';
import type { MailSettings } from './mail/mailer.ts';
import { registerEtaxRoutes } from './etax/etax-routes.ts';
import { readEtaxSettings, type EtaxSettings } from './etax/etax-settings.ts';
import { registerCustomFieldRoutes } from './meta/custom-field-routes.ts';
import { installAttributeUsageGuard } from './attributes/attribute-usage.ts';
import { registerAttributeListRoute } from './attributes/attribute-list-route.ts';
import { registerSaleRoutes } from './pos/sale-routes.ts';
import { registerSaleReturnRoutes } from './pos/sale-return.ts';
import { installShiftRules } from './pos/shift-rules.ts';
import { registerSlipRoutes } from './pos/sale-slip.ts';

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

/** Paths that answer without a token; everything else under /api and /public needs one. */
const PUBLIC = [/^\/api\/(health|ready)$/, /^\/api\/auth\/signin(\/customer\/[^/]+)?$/, /^\/api\/docs(\/|$)/, /^\/public\/language$/, /^\/public\/menu\/customer$/];
const PROTECTED = /^\/(api|public)(\/|$)/;
/** For unmatched URLs: decoded, so "/%61pi/x" is judged as "/api/x" and answers 401 like any other API path. */
function decodedPath(url: string): string {
  const raw = url.split('?')[0]!;
  try { return decodeURIComponent(raw); } catch { return raw; }
}

const AUTH_INVALIDATED = 'auth-invalidated';
const AUTH_ACK_MS = 2000;
const AUTH_ENTITIES = new Set(['user_account', 'user_role', 'user_type']);

/** Builds the whole HTTP application without listening, so tests drive it with inject(). */
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
  const k = opts.db.kysely;
  const policy = new PermissionPolicy(opts.registry);
  const service = new EntityService(opts.db, opts.registry, policy);
  const auth = new Authenticator(opts.db, new TokenService(opts.jwtSecret, opts.tokenTtlSeconds ?? 8 * 3600), opts.principalCacheMs);

  // callback hooks, not async ones: a request whose session is cached passes without a promise
  app.addHook('onRequest', (request, _reply, done) => {
    // the matched route, not the raw URL: "/%61pi/..." is decoded by the router, and must be guarded like "/api/..."
    const path = request.routeOptions.url ?? decodedPath(request.url);
    if (!PROTECTED.test(path) || PUBLIC.some((re) => re.test(path))) { done(); return; }
    let token: string | null;
    try { token = Authenticator.bearer(request); } catch (err) { done(err as Error); return; }
    if (!token) { done(new AppError('UNAUTHORIZED', 'Sign in to continue: send Authorization: Bearer <id_token>')); return; }
    const cached = auth.cachedPrincipal(token);
    if (cached) {
      request.ctx = { userId: cached.user.id, ip: request.ip, principal: cached };
      done();
      return;
    }
    auth.principalFor(token).then((principal) => {
      request.ctx = { userId: principal.user.id, ip: request.ip, principal };
      done();
    }, (err: Error) => done(err));
  });
  // refused access is audited; failed sign-ins are audited by the sign-in route itself
  app.addHook('onResponse', (request, reply, done) => {
    if ((reply.statusCode !== 401 && reply.statusCode !== 403) || request.url.startsWith('/api/auth/signin')) { done(); return; }
    const p = request.ctx ? principalOf(request.ctx) : null;
    writeAudit(k, {
      action: 'access_denied', userId: p?.user.id ?? null, username: p?.user.username ?? null, ip: request.ip,
      entity: request.url.split('?')[0]!.split('/')[2] ?? null, message: `${request.method} ${request.url.slice(0, 300)} answered ${reply.statusCode}`,
    }).catch((err) => request.log.error({ err }, 'audit write failed')).finally(() => done());
  });

  service.onWrite(auditWrites((e) => (e.ctx.principal ? principalOf(e.ctx)!.user.username : null), (trx, step) => service.beforeCommit(trx, step, 'settle')));
  service.onWrite(async (trx, e) => {
    // a role change or deactivation ends every session of that account
    const changed = (f: string) => JSON.stringify(e.before?.[f] ?? null) !== JSON.stringify(e.after?.[f] ?? null);
    if (e.action === 'delete' || ['role_id', 'user_type_id', 'is_active'].some(changed)) {
      await trx.updateTable('user_credential').set((eb) => ({ token_version: eb('token_version', '+', 1) })).where('user_id', '=', e.id).execute();
    }
  }, entitiesNamed('user_account'));

  // after commit: the cache is dropped and open sockets are judged on what was stored (on every instance with Redis)
  service.afterCommit(() => { void auth.invalidate(); }, entitiesNamed(...AUTH_ENTITIES));

  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApi(opts.registry) as never } });
  // rebuilt when the schema version moves, so custom fields and overrides show without a restart
  let openApi = { version: opts.registry.version, doc: null as unknown };
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    transformSpecificationClone: false,
    transformSpecification: (static_) => {
      if (opts.registry.version === 0) return static_;
      if (openApi.version !== opts.registry.version || !openApi.doc) openApi = { version: opts.registry.version, doc: buildOpenApi(opts.registry) };
      return openApi.doc as typeof static_;
    },
  });

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
  registerAuthRoutes(app, { db: k, auth, limiter: limiter ?? new MemorySignInLimiter(), policy, service, hashLogN: opts.hashLogN ?? DEFAULT_LOG_N });
  const reports = new ReportCatalogue(opts.reports ?? readReportDir(join(import.meta.dirname, '..', 'schemas', 'reports'), opts.registry));
  registerSessionRoutes(app, k, opts.registry, policy, reports);
  registerSystemLogRoutes(app, k, policy, contextOf);
  await registerFileRoutes(app, opts.db, service, contextOf, { dir: opts.uploadDir, storage: opts.uploadStore, maxBytes: opts.uploadMaxBytes ?? 20 * 1024 * 1024 });
  const admin = registerAdminRoutes(app, { db: opts.db, registry: opts.registry, auth, options: { ...readAdminOptions(process.env, join(opts.uploadDir, '..', 'backups')), ...(opts.backupDir ? { backupDir: opts.backupDir } : {}) } });
  // the same rule as reading: view on the menu key, or the own-rows exceptions (own account, own alerts)
  registerMetaRoutes(app, service, contextOf, (ctx, e) => policy.canReadField(ctx, e, 'id', false));
  registerPageSettingRoutes(app, opts.db, opts.registry);
  for (const entity of opts.registry.all()) {
    registerExportRoute(app, service, entity.name, contextOf);
    registerEntityRoutes(app, service, entity.name, contextOf);
    registerListAliasRoutes(app, service, entity.name, contextOf);
  }
  registerCustomFieldRoutes(app, { db: opts.db, registry: opts.registry, contextOf });
  installAttributeUsageGuard(service);
  registerAttributeListRoute(app, service, contextOf);
  // first: an action on a document of a closed period does nothing at all
  installClosedBooks(service);
  // before the posting: it takes the source headers' locks first (see cancel-guard.ts)
  installCancelGuard(service);
  installDocumentPosting(service);
  installDefaultCompany(service);
  installDocumentFills(service);
  installDocumentLinkSpread(service);
  installSourcesWhtRate(service);
  service.onPrepare((entity, input, before) => computeAmounts(service, entity, input, before));
  installTotalsCheck(service);
  installWithholdingAmounts(service);
  installTaxInvoiceRules(service);
  installTaxInvoiceSupply(service);
  installNoteCorrects(service);
  registerDocumentRoutes(app, service, contextOf);
  registerDocumentChainRoutes(app, service, contextOf);
  registerFillRoutes(app, service, contextOf);
  registerNewRecordDefaults(app, service, contextOf);
  registerCollectionSummary(app, service, contextOf);
  registerSaleRoutes(app, service, contextOf);
  registerSaleReturnRoutes(app, service, contextOf);
  installShiftRules(service);
  registerSlipRoutes(app, service, contextOf);
  registerTextExportRoute(app, service, reports, contextOf);
  registerReportRoutes(app, service, reports, contextOf);
  installStock(app, service, contextOf, importJobs);
  await installLedger(app, service);
  const printFiles = { db: opts.db, storage: opts.uploadStore ?? dirStorage(opts.uploadDir) };
  registerPrintRoutes(app, service, policy, contextOf, { db: opts.db, files: printFiles });
  registerPortalPdfRoute(app, service, policy, contextOf, printFiles);
  registerPromptPayRoutes(app, service, contextOf, parseId);
  installPromptPayIdCheck(service);
  registerEmailRoutes(app, service, policy, contextOf, { db: k, mail: opts.mail, files: printFiles });
  await registerEtaxRoutes(app, service, policy, contextOf, { db: opts.db, mail: opts.mail, settings: opts.etax ?? readEtaxSettings(process.env) });
  if (opts.web) await opts.web(app);
  const realtime = await attachRealtime(app, auth, opts.redisUrl, opts.redisKey, opts.allowedOrigins ?? []);
  if (opts.redisUrl) {
    // a sign-out, password or role change on one instance ends the session on all of them at once
    // the sender waits for every peer's acknowledgement (bounded), so its answer comes after they dropped their caches
    realtime.io.on(AUTH_INVALIDATED, (ack?: () => void) => { void auth.invalidate(true); ack?.(); });
    // while Redis is down no peer hears an invalidation: every instance then reads each session from the
    // database on every request (no cached principal), so a revoked token is refused everywhere; what was
    // cached before the outage, or while another instance's broadcast was missed, is dropped when the link is back
    auth.cacheAllowed = () => realtime.linked();
    links.realtime = () => realtime.linked();
    realtime.onLinkChange(() => { void auth.invalidate(true); });
    auth.broadcast = async () => {
      if (!realtime.linked()) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), AUTH_ACK_MS); });
      try {
        const outcome = await Promise.race([realtime.io.serverSideEmitWithAck(AUTH_INVALIDATED), late]);
        if (outcome === 'late') app.log.warn('a server instance did not acknowledge a session invalidation in time');
      } catch (err) {
        app.log.warn({ err: { message: (err as Error).message } }, 'a server instance did not acknowledge a session invalidation');
      } finally {
        clearTimeout(timer);
      }
    };
  }
  installSettingsNotifier(service, realtime, k, (err) => app.log.warn({ err: { message: (err as Error).message } }, 'could not read the site settings stamp'));
  const stopAlerts = installAlertNotifier(service, realtime, k, { pollMs: opts.alertPollMs ?? 15_000, onError: (err) => app.log.error({ err }, 'alert notification failed') });
  // a new override version (saved here, or seen by the 500 ms poll when saved elsewhere): every open
  // screen connected to this instance re-renders with it; each instance tells only its own sockets
  const stopSchemaEvents = opts.registry.onChange((change) => { realtime.io.local.emit(SCHEMA_CHANGED, change); });
  // and each socket hears the current version as it connects: a screen that loaded its schema
  // just before a change, but connected just after it, would otherwise miss that change
  realtime.io.on('connection', (socket) => { socket.emit(SCHEMA_CHANGED, { version: opts.registry.version }); });
  app.addHook('onClose', async () => {
    stopSchemaEvents();
    stopAlerts();
    await realtime.close();
  });
  return { app, service, policy, auth, realtime, admin };
}
