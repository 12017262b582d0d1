import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import type { EntityService } from './entity-service.ts';
import type { ContextOf } from './crud-routes.ts';
import type { RawListQuery } from './list-query.ts';
import { hasColumn, type EntitySchema, type FieldDef } from '../../engine/schema/schema-types.ts';
import { describeField } from '../../engine/filter/filter-parser.ts';
import { AppError } from '../errors/app-error.ts';
import { csvCell } from './export-cells.ts';
import { postedQuery } from './posted-query.ts';
import { xlsxStream } from './xlsx-writer.ts';
import { languageOf } from '../../engine/errors/error-texts.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { exportFileName, peopleColumns, presentForCsv } from './export-columns.ts';

const PAGE = 1000;
export const EXPORT_MAX_ROWS = 200_000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The field a dotted column ends on, and its label in the language asked ("ลูกค้า / ชื่อ (ไทย)"). */
function columnInfo(service: EntityService, entity: EntitySchema, path: string, lang: 'th' | 'en'): { field?: FieldDef; label: string } {
  let e: EntitySchema | undefined = entity;
  let field: FieldDef | undefined;
  const labels: string[] = [];
  for (const step of path.split('.')) {
    field = e ? describeField(e, step) : undefined;
    labels.push(field?.label[lang] ?? step);
    e = field?.type === 'link' && field.entity ? service.registry.get(field.entity) : undefined;
  }
  return { field, label: path === 'id' ? 'ID' : labels.join(' / ') };
}

/**
 * GET /api/{entity}/export?format=csv|xlsx&lang=th|en (or POST with the same
 * parameters as a JSON body): the list protocol's
 * filter/sort/search/fields, streamed page by page. Guarded by the role's
 * export flag and the same row restrictions as the list. CSV without
 * Accept-Language keeps field names, ids and codes (scripts read it); the XLSX,
 * and a CSV for a reader, are made for people: labels, enum labels, links as
 * code and name, no ids, dates in the reader's calendar, named after the screen.
 */
export function registerExportRoute(app: FastifyInstance, service: EntityService, entityName: string, contextOf: ContextOf): void {
  // POST takes the same parameters as a JSON body: a selection of ids or a long filter outgrows a URL
  app.route({ method: ['GET', 'POST'], url: `/api/${entityName}/export`, handler: async (request, reply) => {
    const ctx = contextOf(request);
    const entity = service.entity(entityName);
    service.policy.assertAllowed(ctx, entity, 'read');
    service.policy.assertAllowed(ctx, entity, 'export');
    const raw = { ...(request.query as RawListQuery), ...postedQuery(request.body) };
    const format = raw.format ?? 'csv';
    const askedLang = raw.lang;
    const lang = raw.lang ?? 'th';
    if (format !== 'csv' && format !== 'xlsx') throw new AppError('INVALID_QUERY', 'format must be "csv" or "xlsx"');
    if (lang !== 'th' && lang !== 'en') throw new AppError('INVALID_QUERY', 'lang must be "th" or "en"');
    delete raw.format;
    delete raw.lang;
    const query = service.parseQuery(entity, { ...raw, limit: String(PAGE), page: '1' }, ctx, new Set(['format', 'lang']));
    const asked = query.fields?.map((p) => p.join('.')) ?? ['id', ...Object.entries(entity.fields).filter(([, f]) => hasColumn(f) && !f.hidden).map(([n]) => n)];
    // with Accept-Language the CSV reads like the screens; without it, field names, ids and ISO values for scripts.
    // The XLSX is always made for people.
    // the screens name their language (lang=); a browser's own Accept-Language is the next best guess
    const reader = (askedLang as 'th' | 'en' | undefined) ?? languageOf(request.headers['accept-language']);
    const forPeople = format === 'xlsx' || !!reader;
    const columns = forPeople ? peopleColumns(entity, asked, {
      entity: (n) => service.registry.get(n),
      canReadLinked: (e, f) => service.policy.canReadField(ctx, e, f, true),
    }) : asked;
    const fields = columns.map((c) => c.split('.'));
    // the first page is read before answering, so a bad filter still answers with its error code
    const first = await service.list(entityName, { ...query, fields, offset: 0, withTotal: false }, ctx);
    async function* rows() {
      let page = first.rows;
      let offset = 0;
      while (page.length) {
        yield* page;
        offset += PAGE;
        if (page.length < PAGE || offset >= EXPORT_MAX_ROWS) break;
        page = (await service.list(entityName, { ...query, fields, offset, withTotal: false }, ctx)).rows;
      }
    }
    // a browser must never guess another type (HTML) from an export's content
    reply.header('x-content-type-options', 'nosniff');
    if (format === 'xlsx') {
      const cols = columns.map((c) => { const info = columnInfo(service, entity, c, lang); return { key: c, header: info.label, field: info.field }; });
      reply.header('content-type', XLSX_TYPE);
      reply.header('content-disposition', exportFileName(entity, lang, businessToday(businessClock.now(), businessClock.timeZone), 'xlsx').disposition);
      return reply.send(xlsxStream(entity.labelPlural?.[lang] ?? entity.label[lang], cols, rows(), lang));
    }
    const info = columns.map((c) => columnInfo(service, entity, c, reader ?? 'th'));
    const present = (i: number, v: unknown): unknown => (reader ? presentForCsv(info[i]!.field, v, reader) : v);
    async function* lines() {
      yield '\uFEFF' + (reader ? info.map((x) => x.label) : columns).map(csvCell).join(',') + '\r\n';
      for await (const r of rows()) yield columns.map((c, i) => csvCell(present(i, r[c]))).join(',') + '\r\n';
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', reader
      ? exportFileName(entity, reader, businessToday(businessClock.now(), businessClock.timeZone), 'csv').disposition
      : `attachment; filename="${entityName}.csv"`);
    return reply.send(Readable.from(lines()));
  } });
}
