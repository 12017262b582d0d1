import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { ReportDef } from '../../engine/reports/report-types.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';
import { businessTodayNow } from '../stock/business-days.ts';
import { menuKeyOf, summaryOf, type ReportCatalogue } from './report-catalogue.ts';
import { parsePaging, parseParams, type ParamValues } from './report-params.ts';
import { allRows, runPage, totalsOf } from './report-runner.ts';
import { reportCsv, reportFileName, reportPdf, reportXlsx } from './report-output.ts';
import { operatorLines } from './report-operator.ts';
import { formatDate } from '../print/print-format.ts';
import { BE_OFFSET, formatIsoMonth } from '../../engine/format/dates.ts';
import { compileFilter } from '../crud/filter-compiler.ts';
import { etagOnSend } from '../http/etag.ts';

type Query = Record<string, unknown>;
/** What a role may not do with a report, in the words of FORBIDDEN.report (engine/errors/error-texts.ts). */
const REPORT_ACTIONS = { view: { th: 'ดู', en: 'view' }, export: { th: 'ส่งออก', en: 'export' }, print: { th: 'พิมพ์', en: 'print' } } as const;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const REPORT_EXPORT_MAX_ROWS = 200_000;
const PDF_MAX_ROWS = 2000;

/**
 * The report API (issue 32 §5): GET /api/report lists what the caller may
 * view; GET /api/report/{name} answers a page with its columns, totals over
 * every row and the row count; /export (CSV, XLSX; the export flag) and /pdf
 * (the print flag). Every answer is the caller's rows only (their inventories
 * and companies), in the page, the totals, the exports and the chart alike:
 * they all run the same compiled query.
 */
export function registerReportRoutes(app: FastifyInstance, service: EntityService, catalogue: ReportCatalogue, contextOf: ContextOf): void {
  const can = (ctx: RequestContext, def: ReportDef, flag: 'view' | 'export' | 'print') => service.policy.can(ctx, menuKeyOf(def), flag);
  const reportFor = (request: FastifyRequest, flag: 'view' | 'export' | 'print'): { def: ReportDef; ctx: RequestContext } => {
    const name = (request.params as { name: string }).name;
    const def = catalogue.get(name);
    if (!def) throw new AppError('NOT_FOUND', `There is no report "${name}"`);
    const ctx = contextOf(request);
    if (!can(ctx, def, 'view') || (flag !== 'view' && !can(ctx, def, flag))) {
      const denied = can(ctx, def, 'view') ? flag : 'view';
      throw new AppError('FORBIDDEN', `Your role may not ${denied} the report ${def.label.en}`, undefined, { reason: 'report', action: REPORT_ACTIONS[denied], report: def.label });
    }
    return { def, ctx };
  };
  /** `/{name}/{id}` fills the report's routeParam, as the screen's /{name}/{id} path does. */
  const paramsOf = (request: FastifyRequest, def: ReportDef): ParamValues => {
    const query = { ...(request.query as Query) };
    const id = (request.params as { id?: string }).id;
    if (id !== undefined) {
      if (!def.routeParam) throw new AppError('NOT_FOUND', `The report ${def.name} has no /{id} form`);
      query[def.routeParam] = id;
    }
    return parseParams(def, query);
  };

  app.get('/api/report', async (request) => {
    const ctx = contextOf(request);
    return { success: true, data: catalogue.all().filter((d) => can(ctx, d, 'view')).map(summaryOf) };
  });

  const page = async (request: FastifyRequest) => {
    const { def, ctx } = reportFor(request, 'view');
    const params = paramsOf(request, def);
    const query = request.query as Query;
    const paging = parsePaging(query);
    const out = await runPage(service, def, params, ctx, { ...paging, sort: query.sort });
    const summary = summaryOf(def);
    return {
      success: true,
      data: { columns: summary.columns.map((c) => ({ key: c.key, label: c.label.th, label_en: c.label.en, type: c.type, ...(c.link ? { link: c.link } : {}) })), rows: out.rows, totals: out.totals },
      meta: { total_count: out.total_count, page: paging.offset / paging.limit + 1, limit: paging.limit, parameters: params },
    };
  };
  // one report's definition, as GET /api/report lists it: a report screen opened cold asks for this (a few KB) and its
  // rows, not for every report's (about 110 KB) first; it changes only with the report files, hence the validator
  app.get('/api/report/:name/definition', { onSend: etagOnSend }, async (request) => {
    const { def } = reportFor(request, 'view');
    return { success: true, data: summaryOf(def) };
  });
  app.get('/api/report/:name', page);
  app.get<{ Params: { name: string; id: string } }>('/api/report/:name/:id', async (request, reply) => {
    if (!/^\d+$/.test(request.params.id)) throw new AppError('NOT_FOUND', `There is no report path "${request.params.name}/${request.params.id}"`);
    return page(request);
  });

  const exportRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    const { def, ctx } = reportFor(request, 'export');
    const query = request.query as Query;
    const format = query.format ?? 'xlsx';
    const lang = (query.lang ?? 'th') as 'th' | 'en';
    if (format !== 'csv' && format !== 'xlsx') throw new AppError('INVALID_QUERY', 'format must be "csv" or "xlsx"');
    if (lang !== 'th' && lang !== 'en') throw new AppError('INVALID_QUERY', 'lang must be "th" or "en"');
    const params = paramsOf(request, def);
    // the row count first: a bad parameter still answers with its error, and the screen's progress bar knows the end
    const { total_count } = await runPage(service, def, params, ctx, { limit: 1, offset: 0 });
    const rows = allRows(service, def, params, ctx, REPORT_EXPORT_MAX_ROWS, query.sort);
    const totals = () => totalsOf(service, def, params, ctx);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-total-count', String(Math.min(total_count, REPORT_EXPORT_MAX_ROWS)));
    reply.header('access-control-expose-headers', 'x-total-count, content-disposition');
    reply.header('content-disposition', reportFileName(def, lang, businessTodayNow(), format));
    if (format === 'xlsx') {
      reply.header('content-type', XLSX_TYPE);
      return reply.send(reportXlsx(def, rows, totals, lang));
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    return reply.send(Readable.from(reportCsv(def, rows, totals, lang)));
  };
  app.get('/api/report/:name/export', exportRoute);

  app.get('/api/report/:name/pdf', async (request, reply) => {
    const { def, ctx } = reportFor(request, 'print');
    const query = request.query as Query;
    const lang = (query.lang ?? 'th') as 'th' | 'en';
    if (lang !== 'th' && lang !== 'en') throw new AppError('INVALID_QUERY', 'lang must be "th" or "en"');
    const params = paramsOf(request, def);
    const rows: Record<string, unknown>[] = [];
    for await (const r of allRows(service, def, params, ctx, PDF_MAX_ROWS + 1, query.sort)) rows.push(r);
    const truncated = rows.length > PDF_MAX_ROWS;
    const totals = await totalsOf(service, def, params, ctx);
    const header = [...await operatorLines(service, def, params, ctx, lang), ...await parameterLines(service, def, params, lang)];
    const pdf = await reportPdf(def, header, rows.slice(0, PDF_MAX_ROWS), totals, truncated, { lang });
    reply.header('content-type', 'application/pdf');
    reply.header('content-disposition', reportFileName(def, lang, businessTodayNow(), 'pdf').replace(/^attachment/, 'inline'));
    return reply.send(pdf);
  });

  /** The years that have data, newest first, for a report's year parameter (the screen's year picker). */
  app.get('/api/report/:name/year', async (request) => {
    const { def, ctx } = reportFor(request, 'view');
    const p = def.parameters.find((x) => x.yearsOf);
    if (!p?.yearsOf) throw new AppError('NOT_FOUND', `The report ${def.name} has no year parameter`);
    const entity = service.entity(p.yearsOf.entity);
    const k = service.db.kysely;
    const year = sql<string>`substr(cast(${sql.ref(`t.${p.yearsOf.column}`)} as text), 1, 4)`;
    const scope = service.policy.rowFilter(ctx, entity);
    let q = k.selectFrom(`${entity.name} as t`).select(year.as('year')).distinct().where(sql.ref(`t.${p.yearsOf.column}`), 'is not', null);
    if (scope) {
      q = q.where((eb) => compileFilter(eb as never, scope, entity, 't', { adapter: service.db.adapter, entity: (n) => service.registry.get(n), scope: (e) => service.policy.rowFilter(ctx, e) }));
    }
    const rows = await q.orderBy('year', 'desc').execute();
    return { success: true, data: rows.map((r) => Number(r.year)).filter((y) => Number.isFinite(y)) };
  });
}

/** The parameters as the PDF's header prints them: label and value, a record by its code and name. */
async function parameterLines(service: EntityService, def: ReportDef, params: ParamValues, lang: 'th' | 'en'): Promise<{ label: string; value: string }[]> {
  const out: { label: string; value: string }[] = [];
  for (const p of def.parameters) {
    const v = params[p.name];
    if (v === null || v === undefined) continue;
    let text = String(v);
    if (p.type === 'date') text = formatDate(v, { lang });
    // the printed report's month and year read as the rest of the document (Buddhist era in Thai), not "2026-10"
    if (p.type === 'month') text = formatIsoMonth(String(v), lang, true) ?? text;
    if (p.type === 'year' && lang === 'th') text = String(Number(v) + BE_OFFSET);
    if (p.type === 'boolean') text = v ? (lang === 'th' ? 'ใช่' : 'Yes') : (lang === 'th' ? 'ไม่ใช่' : 'No');
    if (p.type === 'enum') text = p.options?.find((o) => o.value === v)?.label[lang] ?? text;
    if (p.type === 'link' && p.entity) {
      const e = service.registry.get(p.entity);
      const cols = ['code', 'name', 'name_th', 'doc_no'].filter((c) => e?.fields[c]);
      if (e && cols.length) {
        const row = await service.db.kysely.selectFrom(e.name).select(cols).where('id', '=', Number(v)).executeTakeFirst();
        if (row) text = cols.map((c) => row[c]).filter(Boolean).join(' ');
      }
    }
    out.push({ label: p.label[lang], value: text });
  }
  return out;
}
