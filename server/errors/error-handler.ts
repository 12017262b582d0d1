import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';
import { isDatabaseTimeout, isDatabaseUnavailable, isTransactionConflict } from '../db/postgres/database-reachability.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { errorText, languageOf, localizeFieldErrors } from '../../engine/errors/error-texts.ts';

/**
 * The error body in the language the client asked for: a request with
 * `Accept-Language: th…` reads Thai texts (engine/errors/error-texts.ts), field
 * problems included. Without it the server's own English wording is kept, as
 * it names more detail (the route, the filter position…).
 */
export function localizedBody(err: AppError, acceptLanguage: string | undefined) {
  const body = err.toBody();
  if (languageOf(acceptLanguage) !== 'th') return body;
  const d = body.error.details as { fields?: unknown } | undefined;
  const fields = Array.isArray(d?.fields) && d.fields.every((f) => typeof f === 'object' && f !== null) ? localizeFieldErrors(d.fields as FieldError[], 'th') : null;
  let message = errorText(err.code, err.params, 'th') ?? body.error.message;
  // "some fields are not valid" says which; a conflict's text already names its fields
  if (fields?.length && ['VALIDATION_FAILED', 'UNKNOWN_FIELD', 'READ_ONLY_FIELD'].includes(err.code)) message = `${message}: ${fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ')}`;
  return { ...body, error: { ...body.error, message, ...(fields ? { details: { ...d, fields } } : {}) } };
}

/** A disk out of space or over quota, from Node (ENOSPC, EDQUOT) or SQLite (SQLITE_FULL). */
function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

/** Maps Fastify's own failures (bad JSON, too large, wrong content type) onto the catalogue. */
function fromFastify(err: FastifyError): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', `The body is not valid JSON: ${err.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
  }
  if (err.validation) return new AppError('INVALID_QUERY', err.message);
  if (err instanceof SyntaxError) return new AppError('BAD_REQUEST', `The body is not valid JSON: ${err.message}`);
  if (err.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (err.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return new AppError('BAD_REQUEST', err.message);
  return null;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const sqliteBusy = (err as { code?: unknown }).code === 'SQLITE_BUSY';
    if (sqliteBusy || (!(err instanceof AppError) && isTransactionConflict(err))) {
      // SQLite: another process (a SERVER_WORKERS worker, a tool) held the write lock past the wait. PostgreSQL: it ended
      // this transaction to let another go on (a deadlock). Either way nothing was saved, and sent again it succeeds
      if (sqliteBusy) request.log.warn({ err }, 'database busy');
      else request.log.warn({ err: { message: err.message, code: err.code } }, 'database conflict');
      const busy = new AppError('DATABASE_BUSY');
      return reply.status(busy.status).header('retry-after', '1').send(localizedBody(busy, request.headers['accept-language']));
    }
    if (!(err instanceof AppError) && isDatabaseTimeout(err)) {
      // PostgreSQL cancelled a statement past PG_STATEMENT_TIMEOUT_MS or PG_LOCK_TIMEOUT_MS; its transaction rolled back
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database timeout');
      const slow = new AppError('DATABASE_TIMEOUT');
      return reply.status(slow.status).header('retry-after', '5').send(localizedBody(slow, request.headers['accept-language']));
    }
    if (!(err instanceof AppError) && isDatabaseUnavailable(err)) {
      // stopped, restarting or unreachable past PG_UNAVAILABLE_WAIT_MS: a transaction it broke was rolled back
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
      const down = new AppError('DATABASE_UNAVAILABLE');
      return reply.status(down.status).header('retry-after', '5').send(localizedBody(down, request.headers['accept-language']));
    }
    if (!(err instanceof AppError) && isStorageFull(err)) {
      // the write that failed removed what it had begun (uploads, backups); SQLite rolled its transaction back
      request.log.error({ err: { message: err.message, code: err.code } }, 'disk full');
      const full = new AppError('STORAGE_FULL');
      return reply.status(full.status).send(localizedBody(full, request.headers['accept-language']));
    }
    const known = err instanceof AppError ? err : fromFastify(err);
    if (known) return reply.status(known.status).send(localizedBody(known, request.headers['accept-language']));
    request.log.error({ err }, 'unhandled error');
    const internal = new AppError('INTERNAL_ERROR');
    return reply.status(internal.status).send(localizedBody(internal, request.headers['accept-language']));
  });
  app.setNotFoundHandler((request, reply) => {
    const e = new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);
    return reply.status(e.status).send(localizedBody(e, request.headers['accept-language']));
  });
}
