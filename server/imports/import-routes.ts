import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { AppError } from '../errors/app-error.ts';
import { readTableFile } from './table-file.ts';
import { insertPlanned, planImport, type ImportError } from './product-import.ts';

const MAX_BYTES = 50 * 1024 * 1024;
const SHOWN_ERRORS = 1000;
const KEEP_MS = 60 * 60 * 1000;
type Mode = 'all_or_nothing' | 'valid_rows';

interface Job {
  id: string; userId: number | null; mode: Mode;
  state: 'importing' | 'done' | 'failed';
  total: number; valid: number; invalid: number; done: number; imported: number;
  errors: ImportError[]; error_count: number; message: string | null; message_th: string | null; started_at: string; finished_at: string | null;
}

/** Jobs live in this instance's memory for an hour: progress is asked of the instance that runs the import. */
const jobs = new Map<string, Job>();
function keep(job: Job): void {
  jobs.set(job.id, job);
  for (const [id, j] of jobs) if (j.finished_at && Date.now() - Date.parse(j.finished_at) > KEEP_MS) jobs.delete(id);
}

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
 * `POST /api/product/import?mode=all_or_nothing|valid_rows&dry_run=true|false`
 * (multipart, one CSV or XLSX file). A dry run answers the preview at once:
 * row counts, the columns understood, the first rows and every error (row,
 * column, reason). A real run answers 202 with a job id; `GET
 * /api/product/import/{job}` follows it. all_or_nothing writes nothing when any
 * row is wrong; valid_rows writes the good rows and lists the others. The rows
 * are written in one transaction, in batches.
 */
export function registerImportRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  app.post('/api/product/import', async (request, reply) => {
    const ctx = contextOf(request);
    const entity = service.entity('product');
    service.policy.assertAllowed(ctx, entity, 'create');
    const q = (request.query ?? {}) as Record<string, unknown>;
    const mode = (q.mode ?? 'all_or_nothing') as Mode;
    if (mode !== 'all_or_nothing' && mode !== 'valid_rows') throw new AppError('INVALID_QUERY', '"mode" must be all_or_nothing or valid_rows');
    if (q.dry_run !== undefined && q.dry_run !== 'true' && q.dry_run !== 'false') throw new AppError('INVALID_QUERY', '"dry_run" must be true or false');
    const { data, name } = await uploaded(request);
    const plan = await planImport(service, 'product', await readTableFile(data, name));
    const summary = { mode, total: plan.total, valid: plan.valid.length, invalid: plan.invalidRows, columns: plan.columns, error_count: plan.errors.length, errors: plan.errors.slice(0, SHOWN_ERRORS) };
    if (q.dry_run === 'true') {
      const wouldImport = mode === 'valid_rows' || plan.errors.length === 0 ? plan.valid.length : 0;
      return { success: true, data: { ...summary, would_import: wouldImport, sample: plan.valid.slice(0, 20).map((r) => ({ row: r.row, ...r.body })) } };
    }
    const job: Job = {
      id: randomUUID(), userId: ctx.userId, mode, state: 'importing', total: plan.total, valid: plan.valid.length, invalid: plan.invalidRows, done: 0, imported: 0,
      errors: summary.errors, error_count: plan.errors.length, message: null, message_th: null, started_at: new Date().toISOString(), finished_at: null,
    };
    keep(job);
    void run(service, ctx, job, plan.errors.length > 0 && mode === 'all_or_nothing' ? [] : plan.valid, name);
    return reply.status(202).send({ success: true, data: view(job) });
  });

  app.get<{ Params: { job: string } }>('/api/product/import/:job', async (request) => {
    const ctx = contextOf(request);
    const job = jobs.get(request.params.job);
    // another user's import is not theirs to watch
    if (!job || job.userId !== ctx.userId) throw new AppError('NOT_FOUND', `No import ${request.params.job} of yours is known to this server`);
    return { success: true, data: view(job) };
  });
}

const view = (j: Job) => ({ ...j, userId: undefined, progress: j.valid ? Math.round((j.done / j.valid) * 100) : 100 });

async function run(service: EntityService, ctx: RequestContext, job: Job, rows: { body: Record<string, unknown> }[], fileName: string): Promise<void> {
  const entity = service.entity('product');
  try {
    if (job.mode === 'all_or_nothing' && job.error_count > 0) {
      job.state = 'failed';
      job.message = `${job.invalid} of ${job.total} rows have errors; nothing was imported (all or nothing)`;
      job.message_th = `${job.invalid} จาก ${job.total} แถวมีข้อผิดพลาด จึงไม่ได้นำเข้าแถวใดเลย (นำเข้าทั้งหมดหรือไม่นำเข้าเลย)`;
      return;
    }
    await service.db.kysely.transaction().execute(async (trx) => {
      job.imported = await insertPlanned(trx, entity, rows, ctx.userId, (n) => { job.done = n; });
      await writeAudit(trx, { action: 'create', userId: ctx.userId, ip: null, entity: 'product', message: `imported ${job.imported} products from ${fileName} (${job.mode}, ${job.invalid} rows skipped)` });
    });
    job.state = 'done';
  } catch (err) {
    job.state = 'failed';
    job.imported = 0;
    job.message = `The import was rolled back: ${(err as Error).message}`;
    job.message_th = `การนำเข้าถูกยกเลิกทั้งหมด ไม่มีสินค้าใดถูกบันทึก: ${(err as Error).message}`;
  } finally {
    job.finished_at = new Date().toISOString();
  }
}
