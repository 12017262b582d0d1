import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Database } from '../db/dialect-adapter.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { AppError } from '../errors/app-error.ts';
import { ALLOWED_DESCRIPTION, cleanFileName, extensionOf, sniff } from './file-sniffer.ts';
import { findFile, removeFiles, storeFile, type StoredFile } from './file-store.ts';
import { dirStorage, type FileStorage } from './file-storage.ts';
import type { RequestContext } from '../crud/access-policy.ts';

export interface FileRouteOptions {
  dir: string;
  /** Where contents live; a directory store on `dir` when unset. */
  storage?: FileStorage;
  maxBytes: number;
}

const CATEGORY = /^[a-z0-9_-]{1,40}$/;
const MAX_FILES = 10;

function publicView(f: StoredFile) {
  return { id: f.id, file_name: f.original_name, mime_type: f.mime_type, size: f.size, category: f.category, url: `/api/file/${f.id}` };
}

/**
 * POST /api/file/upload/{category}: multipart upload with a size limit and a
 * type allow-list checked on the content. GET /api/file/{id}: the file, to the
 * uploader or to anyone who may see a record that references it.
 */
export async function registerFileRoutes(app: FastifyInstance, db: Database, service: EntityService, contextOf: ContextOf, opts: FileRouteOptions): Promise<void> {
  const storage = opts.storage ?? dirStorage(opts.dir);
  await app.register(multipart, { limits: { fileSize: opts.maxBytes, files: MAX_FILES, fields: 20 } });

  const upload = async (request: FastifyRequest, category: string) => {
    const ctx = contextOf(request);
    if (!CATEGORY.test(category)) throw new AppError('VALIDATION_FAILED', 'category may use a-z, 0-9, _ and - (at most 40 characters)');
    if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send files as multipart/form-data');
    const saved: StoredFile[] = [];
    /** What reading the request can fail with is the sender's problem (4xx); storing is ours. */
    const readFailure = (err: unknown): unknown => {
      if (err instanceof AppError) return err;
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', `A file is larger than the limit of ${Math.round(opts.maxBytes / 1024 / 1024)} MB`);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new AppError('PAYLOAD_TOO_LARGE', `At most ${MAX_FILES} files per upload`);
      if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send files as multipart/form-data');
      return new AppError('BAD_REQUEST', `The upload is not valid multipart/form-data: ${(err as Error).message}`);
    };
    try {
      const parts = request.files()[Symbol.asyncIterator]();
      for (;;) {
        const next = await parts.next().catch((err: unknown) => { throw readFailure(err); });
        if (next.done) break;
        const part = next.value;
        const name = cleanFileName(part.filename);
        const content = await part.toBuffer().catch((err: unknown) => { throw readFailure(err); });
        const type = sniff(content, name);
        if (!type || !type.extensions.includes(extensionOf(name))) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', `"${name}" is not an allowed file: its content must be ${ALLOWED_DESCRIPTION}, and its name must end with the matching extension`);
        }
        saved.push(await storeFile(db, storage, { original_name: name, mime_type: type.mime, size: content.length, category, uploaded_by: ctx.userId }, content, extensionOf(name)));
      }
    } catch (err) {
      await removeFiles(db, storage, saved);
      throw err;
    }
    if (saved.length === 0) throw new AppError('VALIDATION_FAILED', 'No file was sent');
    return { success: true, data: saved.map(publicView) };
  };

  app.post('/api/file/upload', async (request) => upload(request, 'default'));
  app.post<{ Params: { category: string } }>('/api/file/upload/:category', async (request) => upload(request, request.params.category));

  /** The entities and fields that can hold a file reference. */
  const holders = () => service.registry.all().flatMap((e) => Object.entries(e.fields).filter(([, f]) => f.type === 'file' || f.type === 'image').map(([n]) => ({ entity: e, field: n })));

  /** The uploader, or anyone who may see a record that references the file. */
  const mayRead = async (ctx: RequestContext, file: StoredFile): Promise<boolean> => {
    if (ctx.userId === null && ctx.principal === undefined) return true;
    if (file.uploaded_by !== null && file.uploaded_by === ctx.userId) return true;
    for (const { entity, field } of holders()) {
      try {
        const query = service.parseQuery(entity, { filter: JSON.stringify({ [field]: { _eq: file.id } }), limit: '1', fields: 'id' }, ctx);
        if ((await service.list(entity.name, query, ctx)).rows.length) return true;
      } catch (err) {
        if (!(err instanceof AppError)) throw err; // no permission on that entity: not a way in
      }
    }
    return false;
  };

  // a record may only point at a file its writer may already read; otherwise anyone could
  // reference a guessed or leaked file id from their own avatar and download it from there
  service.fileGuard = async (ctx, ref) => {
    const file = await findFile(db, ref);
    return !!file && (await mayRead(ctx, file));
  };

  app.get<{ Params: { id: string } }>('/api/file/:id', async (request, reply) => {
    const ctx = contextOf(request);
    const file = await findFile(db, request.params.id);
    const missing = new AppError('NOT_FOUND', 'The file does not exist or you may not see it');
    if (!file) throw missing;
    if (!(await mayRead(ctx, file))) throw missing;
    const content = await storage.get(file.path);
    if (!content) throw missing;
    reply.header('content-type', file.mime_type);
    reply.header('content-length', String(file.size));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-disposition', `attachment; filename="${file.original_name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.original_name)}`);
    return reply.send(content);
  });
}
