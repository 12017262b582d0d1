import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Database } from '../db/dialect-adapter.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { contextOf } from '../auth/authenticator.ts';
import { principalOf } from '../auth/principal.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { AppError } from '../errors/app-error.ts';
import { customFieldsOfBackup, ensureCustomColumns } from '../meta/custom-fields.ts';
import { bumpOverrideVersion, refreshOverrides } from '../meta/schema-overrides.ts';
import { assertAdministrator } from '../auth/admin-access.ts';
import { BackupStore, type BackupEntry } from './backup-store.ts';
import { fileKind, openBackupFile, verifyBackupFile } from './backup-source.ts';
import { loadInto, type LoadReport } from './data-loader.ts';
import { WriteGate } from './write-gate.ts';
import { registerMenuKeysRoute } from './menu-keys-route.ts';

export interface AdminOptions {
  /** Where backups are kept (BACKUP_DIR). */
  backupDir: string;
  /** Scheduled backups kept (BACKUP_KEEP, default 7). */
  keep?: number;
  /** "HH:MM" server local time of the daily backup, or "off" (BACKUP_DAILY_AT, default 02:00). */
  dailyAt?: string;
  /** Largest uploaded backup file (BACKUP_UPLOAD_MAX_MB, default 1024). */
  uploadMaxBytes?: number;
}

/** Tables a restore leaves alone: the sync state, and the audit log, which only ever grows. */
export const RESTORE_SKIPS = new Set(['schema_state', 'system_log']);

function publicEntry(e: BackupEntry) {
  const rows = Object.entries(e.counts).filter(([t]) => t !== 'schema_state').reduce((a, [, n]) => a + n, 0);
  return { id: e.id, size: e.size, created_at: e.created_at, created_by: e.created_by, created_by_name: e.created_by_name, origin: e.origin, format: e.format, dialect: e.dialect, schema_version: e.schema_version, rows, sha256: e.sha256 };
}

export function readAdminOptions(env: NodeJS.ProcessEnv, defaultDir: string): AdminOptions {
  const keep = env.BACKUP_KEEP ? Number(env.BACKUP_KEEP) : 7;
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`BACKUP_KEEP must be a positive whole number, not "${env.BACKUP_KEEP}"`);
  const dailyAt = env.BACKUP_DAILY_AT || '02:00';
  if (dailyAt !== 'off' && !/^([01]\d|2[0-3]):[0-5]\d$/.test(dailyAt)) throw new Error(`BACKUP_DAILY_AT must be HH:MM or "off", not "${dailyAt}"`);
  const mb = env.BACKUP_UPLOAD_MAX_MB ? Number(env.BACKUP_UPLOAD_MAX_MB) : 1024;
  return { backupDir: env.BACKUP_DIR || defaultDir, keep, dailyAt, uploadMaxBytes: mb * 1024 * 1024 };
}

/** Milliseconds from `now` to the next HH:MM (server local time). */
export function msUntil(hhmm: string, now = new Date()): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const next = new Date(now);
  next.setHours(h, m, 0, 0);
  if (next <= now) next.setDate(next.getDate() + 1);
  return next.getTime() - now.getTime();
}

export interface AdminServices {
  gate: WriteGate;
  store: BackupStore;
  restore(path: string, by: { id: number | null; name: string | null; ip: string | null }): Promise<LoadReport>;
}

/**
 * /api/db_manage: backups (now, listed, downloaded, daily with N kept) and
 * restore from a listed or uploaded backup behind the write gate.
 * Administrators only (server/auth/admin-access.ts).
 */
export function registerAdminRoutes(app: FastifyInstance, d: { db: Database; registry: SchemaRegistry; auth: Authenticator; options: AdminOptions }): AdminServices {
  registerMenuKeysRoute(app, d.registry);
  const store = new BackupStore(d.options.backupDir);
  const gate = new WriteGate();
  gate.install(app);
  const k = d.db.kysely;
  const who = (request: FastifyRequest) => {
    const ctx = contextOf(request);
    assertAdministrator(ctx);
    const p = principalOf(ctx);
    return { id: p?.user.id ?? null, name: p?.user.username ?? null, ip: request.ip };
  };

  const restore = async (path: string, by: { id: number | null; name: string | null; ip: string | null }): Promise<LoadReport> => {
    // verified in full before anything is touched: integrity, format, schema version, counts and checksums
    const meta = await verifyBackupFile(path);
    return gate.closedWhile('restore', async () => {
      // custom fields' columns are in no schema file: add the backup's before its rows come, or they would be skipped
      const pre = await openBackupFile(path);
      try { await ensureCustomColumns(d.db, await customFieldsOfBackup(pre)); } finally { pre.close(); }
      const source = await openBackupFile(path);
      let report: LoadReport;
      try {
        report = await loadInto(d.db, source, RESTORE_SKIPS);
      } finally {
        source.close();
      }
      await d.auth.invalidate();
      // the restored page settings and custom fields replaced the rows but not the version (schema_state is skipped): move it, so every instance reloads them
      await bumpOverrideVersion(d.db);
      await refreshOverrides(d.db, d.registry);
      await writeAudit(k, { action: 'restore', userId: by.id, username: by.name, ip: by.ip, entity: 'db_manage', message: `restored a ${meta.dialect} backup of ${meta.created_at}`, changes: { rows: report.counts, skipped_tables: report.skippedTables, skipped_columns: report.skippedColumns } });
      return report;
    });
  };

  app.post('/api/db_manage/backup', async (request, reply) => {
    const by = who(request);
    const e = await store.create(d.db, by, 'manual');
    await writeAudit(k, { action: 'backup', userId: by.id, username: by.name, ip: by.ip, entity: 'db_manage', recordId: e.id, message: `${e.size} bytes` });
    reply.status(201);
    return { success: true, data: publicEntry(e) };
  });

  app.get('/api/db_manage/backup', async (request) => {
    who(request);
    return { success: true, data: store.list().map(publicEntry) };
  });

  app.get<{ Params: { id: string } }>('/api/db_manage/backup/:id/download', async (request, reply) => {
    const by = who(request);
    const e = store.get(request.params.id);
    if (!e) throw new AppError('NOT_FOUND', 'There is no such backup');
    await writeAudit(k, { action: 'backup_download', userId: by.id, username: by.name, ip: by.ip, entity: 'db_manage', recordId: e.id });
    reply.header('content-type', e.format === 'sqlite' ? 'application/vnd.sqlite3' : 'application/gzip');
    reply.header('content-length', String(e.size));
    reply.header('content-disposition', `attachment; filename="${e.file}"`);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(createReadStream(store.pathOf(e)));
  });

  app.post('/api/db_manage/restore', async (request) => {
    const by = who(request);
    let entry: BackupEntry | null;
    if (request.isMultipart()) {
      const part = await request.file({ limits: { fileSize: d.options.uploadMaxBytes ?? 1024 * 1024 * 1024, files: 1 } }).catch((err: unknown) => {
        throw new AppError('BAD_REQUEST', `The upload is not valid multipart/form-data: ${(err as Error).message}`);
      });
      if (!part) throw new AppError('VALIDATION_FAILED', 'No backup file was sent', { fields: [{ field: 'file', code: 'required', message: 'is required' }] });
      const tmp = store.uploadPath();
      try {
        await pipeline(part.file, createWriteStream(tmp));
        if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', 'The backup file is larger than BACKUP_UPLOAD_MAX_MB');
        const kind = fileKind(tmp);
        if (!kind) throw new AppError('BACKUP_INVALID', 'The backup file cannot be used: it is neither a SQLite backup nor a gzip JSON-lines backup', { reason: 'unknown format' });
        const meta = await verifyBackupFile(tmp);
        entry = await store.adopt(tmp, kind, meta, by);
      } catch (err) {
        rmSync(tmp, { force: true });
        throw err;
      }
    } else {
      const id = (request.body as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || !id) throw new AppError('VALIDATION_FAILED', 'id: is required', { fields: [{ field: 'id', code: 'required', message: 'is required' }] });
      entry = store.get(id);
      if (!entry) throw new AppError('NOT_FOUND', 'There is no such backup');
    }
    const report = await restore(store.pathOf(entry), by);
    return { success: true, data: { id: entry.id, restored_rows: report.counts, skipped_tables: report.skippedTables, skipped_columns: report.skippedColumns } };
  });

  // the daily backup; only the newest `keep` scheduled ones are kept
  let timer: NodeJS.Timeout | null = null;
  const schedule = () => {
    if (!d.options.dailyAt || d.options.dailyAt === 'off') return;
    timer = setTimeout(async () => {
      try {
        const e = await store.create(d.db, { id: null, name: 'schedule' }, 'schedule');
        store.prune(d.options.keep ?? 7);
        await writeAudit(k, { action: 'backup', userId: null, username: 'schedule', ip: null, entity: 'db_manage', recordId: e.id, message: `daily backup, ${e.size} bytes` });
      } catch (err) {
        app.log.error({ err }, 'scheduled backup failed');
      }
      schedule();
    }, msUntil(d.options.dailyAt));
    timer.unref();
  };
  schedule();
  app.addHook('onClose', async () => { if (timer) clearTimeout(timer); });
  return { gate, store, restore };
}
