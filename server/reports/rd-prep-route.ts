import type { FastifyInstance } from 'fastify';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';
import { rdPrepText, type RdPrepForm, type RdPrepRow } from '../../engine/reports/rd-prep-text.ts';
import { menuKeyOf, type ReportCatalogue } from './report-catalogue.ts';
import { parseParams } from './report-params.ts';
import { allRows } from './report-runner.ts';

/** A month's certificates of one form; far below what RD Prep takes in one file. */
const MAX_LINES = 100_000;

/**
 * GET /api/report/wht_attachment/rd_prep?month=YYYY-MM&pnd_form=pnd3|pnd53: the ภ.ง.ด.3 / ภ.ง.ด.53
 * attachment as the text file RD Prep imports (engine/reports/rd-prep-text.ts). The rows are the
 * declared report schemas/reports/wht_attachment.json, run as the caller (their companies only),
 * behind the export flag of its menu key (wht_summary). Not a report format of its own: a fixed
 * government layout of one report, so a small route rather than a format feature (docs/reports.md).
 */
export function registerRdPrepRoute(app: FastifyInstance, service: EntityService, catalogue: ReportCatalogue, contextOf: ContextOf): void {
  app.get('/api/report/wht_attachment/rd_prep', async (request, reply) => {
    const def = catalogue.get('wht_attachment');
    if (!def) throw new AppError('NOT_FOUND', 'There is no report "wht_attachment"');
    const ctx = contextOf(request);
    if (!service.policy.can(ctx, menuKeyOf(def), 'view') || !service.policy.can(ctx, menuKeyOf(def), 'export')) {
      throw new AppError('FORBIDDEN', `Your role may not export the report ${def.label.en}`);
    }
    const params = parseParams(def, request.query as Record<string, unknown>);
    const form = params.pnd_form as RdPrepForm;
    const rows: RdPrepRow[] = [];
    for await (const r of allRows(service, def, params, ctx, MAX_LINES)) rows.push(r as unknown as RdPrepRow);
    reply.header('content-type', 'text/plain; charset=utf-8');
    reply.header('access-control-expose-headers', 'content-disposition');
    reply.header('content-disposition', `attachment; filename="${form.toUpperCase()}_${String(params.month)}.txt"`);
    return reply.send(rdPrepText(form, rows));
  });
}
