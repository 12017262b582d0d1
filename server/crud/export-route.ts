import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import type { EntityService } from './entity-service.ts';
import type { ContextOf } from './crud-routes.ts';
import type { RawListQuery } from './list-query.ts';
import { hasColumn, type EntitySchema, type FieldDef } from '../../engine/schema/schema-types.ts';
import { languageOf } from '../../engine/errors/error-texts.ts';
import { formatIsoDate, formatIsoDateTime } from '../../engine/format/dates.ts';

/**
 * With Accept-Language: th the file reads like the screens: Thai column labels and
 * dates with Buddhist-era years in Bangkok time; without it, field names and ISO
 * values for machines.
 */
function presenter(entity: EntitySchema, service: EntityService, columns: string[], lang: 'th' | 'en' | null) {
  const fieldAt = (path: string): FieldDef | undefined => {
    const [head, tail] = path.split('.');
    const f = entity.fields[head!];
    if (!tail) return f;
    return f?.type === 'link' ? service.registry.get(f.entity!)?.fields[tail] : undefined;
  };
  const fields = columns.map(fieldAt);
  const header = lang ? columns.map((c, i) => fields[i]?.label[lang] ?? c) : columns;
  const cell = (i: number, v: unknown): unknown => {
    const f = fields[i];
    if (!lang || typeof v !== 'string' || !f) return v;
    if (f.type === 'date') return formatIsoDate(v, lang);
    if (f.type === 'datetime') return formatIsoDateTime(v, lang);
    return v;
  };
  return { header, cell };
}

const PAGE = 1000;
export const EXPORT_MAX_ROWS = 200_000;

/** Bidirectional controls would show a cell's text reversed in a spreadsheet ("exe.fdp" as "pdf.exe"): shown as their escapes. */
const BIDI = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = (typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // a leading = + - @ would run as a formula in a spreadsheet
  const safe = /^[=+\-@\t\r]/.test(s) && Number.isNaN(Number(s)) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * GET /api/{entity}/export: the list protocol's filter/sort/search/fields as
 * CSV, streamed page by page. Guarded by the role's export flag and the same
 * row restrictions as the list.
 */
export function registerExportRoute(app: FastifyInstance, service: EntityService, entityName: string, contextOf: ContextOf): void {
  app.get(`/api/${entityName}/export`, async (request, reply) => {
    const ctx = contextOf(request);
    const entity = service.entity(entityName);
    service.policy.assertAllowed(ctx, entity, 'read');
    service.policy.assertAllowed(ctx, entity, 'export');
    const raw = { ...(request.query as RawListQuery) };
    delete raw.format;
    const query = service.parseQuery(entity, { ...raw, limit: String(PAGE), page: '1' }, ctx, new Set(['format']));
    const columns = query.fields?.map((p) => p.join('.')) ?? ['id', ...Object.entries(entity.fields).filter(([, f]) => hasColumn(f) && !f.hidden).map(([n]) => n)];
    const { header, cell } = presenter(entity, service, columns, languageOf(request.headers['accept-language']));
    const first = await service.list(entityName, { ...query, fields: columns.map((c) => c.split('.')), offset: 0, withTotal: false }, ctx);
    async function* lines() {
      yield '\uFEFF' + header.map(csvCell).join(',') + '\r\n';
      let rows = first.rows;
      let offset = 0;
      while (rows.length) {
        for (const r of rows) yield columns.map((c, i) => csvCell(cell(i, r[c]))).join(',') + '\r\n';
        offset += PAGE;
        if (rows.length < PAGE || offset >= EXPORT_MAX_ROWS) break;
        rows = (await service.list(entityName, { ...query, fields: columns.map((c) => c.split('.')), offset, withTotal: false }, ctx)).rows;
      }
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${entityName}.csv"`);
    return reply.send(Readable.from(lines()));
  });
}
