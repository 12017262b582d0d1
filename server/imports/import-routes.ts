import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { AppError } from '../errors/app-error.ts';
import { readTableFile } from './table-file.ts';
import { insertPlanned, planImport } from './row-import.ts';
import { MemoryImportJobs, type ImportJob as Job, type ImportJobStore, type ImportMode as Mode } from './import-jobs.ts';

const MAX_BYTES = 50 * 1024 * 1024;
const SHOWN_ERRORS = 1000;
/** Progress is saved at most this often while rows are written (and always at the end). */
const PROGRESS_MS = 250;

async function uploaded(request: import('fastify').FastifyRequest): Promise<{ data: Buffer; name: string }> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
  const part = await request.file({ limits: { fileSize: MAX_BYTES, files: 1 } }).catch((err: unknown) => {
    throw new AppError('BAD_REQUEST', `The upload is not valid multipart/form-data: ${(err as Error).message}`);
  });
  if (!part) throw new AppError('BAD_REQUEST', 'No file was sent');
  const data = await part.toBuffer().catch(() => { throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${MAX_BYTES / 1024 / 1024} MB`); });
  return { data, name: part.filename };
}

/**
 * `POST /api/<entity>/import?mode=all_or_nothing|valid_rows&dry_run=true|false`
 * (multipart, one CSV or XLSX file) for every entity whose schema says
 * `importable`. A dry run answers the preview at once: row counts, the columns
 * understood, the first rows and every error (row, column, reason). A real run
 * answers 202 with a job id; `GET /api/<entity>/import/{job}` follows it.
 * all_or_nothing writes nothing when any row is wrong; valid_rows writes the
 * good rows and lists the others. The rows are written in one transaction, in
 * batches.
 */
export function registerImportRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf, jobs: ImportJobStore = new MemoryImportJobs()): void {
  for (const entity of service.registry.all()) if (entity.importable) registerEntityImport(app, service, contextOf, jobs, entity);
}

function registerEntityImport(app: FastifyInstance, service: EntityService, contextOf: ContextOf, jobs: ImportJobStore, schema: EntitySchema): void {
  const name = schema.name;
  app.post(`/api/${name}/import`, async (request, reply) => {
    const ctx = contextOf(request);
    const entity = service.entity(name);
    service.policy.assertAllowed(ctx, entity, 'create');
    const q = (request.query ?? {}) as Record<string, unknown>;
    const mode = (q.mode ?? 'all_or_nothing') as Mode;
    if (mode !== 'all_or_nothing' && mode !== 'valid_rows') throw new AppError('INVALID_QUERY', '"mode" must be all_or_nothing or valid_rows');
    if (q.dry_run !== undefined && q.dry_run !== 'true' && q.dry_run !== 'false') throw new AppError('INVALID_QUERY', '"dry_run" must be true or false');
    const { data, name: fileName } = await uploaded(request);
    const plan = await planImport(service, name, await readTableFile(data, fileName), ctx);
    const summary = { mode, total: plan.total, valid: plan.valid.length, invalid: plan.invalidRows, columns: plan.columns, error_count: plan.errors.length, errors: plan.errors.slice(0, SHOWN_ERRORS) };
    if (q.dry_run === 'true') {
      const wouldImport = mode === 'valid_rows' || plan.errors.length === 0 ? plan.valid.length : 0;
      return { success: true, data: { ...summary, would_import: wouldImport, sample: plan.valid.slice(0, 20).map((r) => ({ row: r.row, ...r.body })) } };
    }
    const job: Job = {
      id: randomUUID(), userId: ctx.userId, entity: name, mode, state: 'importing', total: plan.total, valid: plan.valid.length, invalid: plan.invalidRows, done: 0, imported: 0,
      errors: summary.errors, error_count: plan.errors.length, message: null, message_th: null, started_at: new Date().toISOString(), finished_at: null,
    };
    await jobs.save(job);
    void run(service, ctx, job, plan.errors.length > 0 && mode === 'all_or_nothing' ? [] : plan.valid, fileName, jobs)
      .catch((err: unknown) => app.log.error({ err: { message: (err as Error).message } }, 'an import could not save its state'));
    return reply.status(202).send({ success: true, data: view(job) });
  });

  app.get<{ Params: { job: string } }>(`/api/${name}/import/:job`, async (request) => {
    const ctx = contextOf(request);
    const job = await jobs.get(request.params.job);
    // another user's import is not theirs to watch, nor is an import into another entity under this one's path
    if (!job || job.userId !== ctx.userId || (job.entity ?? name) !== name) throw new AppError('NOT_FOUND', `No import ${request.params.job} of yours is known (jobs are kept for an hour after they finish)`);
    return { success: true, data: view(job) };
  });
}

const view = (j: Job) => ({ ...j, userId: undefined, entity: undefined, progress: j.valid ? Math.round((j.done / j.valid) * 100) : 100 });

async function run(service: EntityService, ctx: RequestContext, job: Job, rows: { body: Record<string, unknown> }[], fileName: string, jobs: ImportJobStore): Promise<void> {
  const entity = service.entity(job.entity!);
  // saves run one after another, so a slow one is never overtaken by an older state
  let saving: Promise<void> = Promise.resolve();
  let savedAt = Date.now();
  const progress = (n: number) => {
    job.done = n;
    if (Date.now() - savedAt < PROGRESS_MS) return;
    savedAt = Date.now();
    const snapshot = { ...job };
    saving = saving.then(() => jobs.save(snapshot)).catch(() => undefined);
  };
  try {
    if (job.mode === 'all_or_nothing' && job.error_count > 0) {
      job.state = 'failed';
      job.message = `${job.invalid} of ${job.total} rows have errors; nothing was imported (all or nothing)`;
      job.message_th = `${job.invalid} จาก ${job.total} แถวมีข้อผิดพลาด จึงไม่ได้นำเข้าแถวใดเลย (นำเข้าทั้งหมดหรือไม่นำเข้าเลย)`;
      return;
    }
    await service.db.kysely.transaction().execute(async (trx) => {
      job.imported = await insertPlanned(trx, entity, rows, ctx.userId, progress);
      await writeAudit(trx, { action: 'create', userId: ctx.userId, ip: null, entity: entity.name, message: `imported ${job.imported} ${entity.name} rows from ${fileName} (${job.mode}, ${job.invalid} rows skipped)` });
    });
    job.state = 'done';
  } catch (err) {
    job.state = 'failed';
    job.imported = 0;
    job.message = `The import was rolled back: ${(err as Error).message}`;
    job.message_th = `การนำเข้าถูกยกเลิกทั้งหมด ไม่มีแถวใดถูกบันทึก: ${(err as Error).message}`;
  } finally {
    job.finished_at = new Date().toISOString();
    await saving;
    await jobs.save(job);
  }
}
