import type { FastifyInstance } from 'fastify';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';
import { TEXT_EXPORTS } from '../../engine/reports/text-exports.ts';
import { menuKeyOf, type ReportCatalogue } from './report-catalogue.ts';
import { parseParams } from './report-params.ts';
import { allRows } from './report-runner.ts';

/** A month's certificates, a year's lines: far below what a filing program takes in one file. */
const MAX_LINES = 100_000;

/**
 * GET /api/report/{name}/text/{format}: a fixed-layout text file a report file declares in `textExports`
 * (the ภ.ง.ด.3/53 attachment for RD Prep: /api/report/wht_attachment/text/rd_prep?month=&pnd_form=).
 * The rows are the report's own, run as the caller (their inventories and companies only), behind the
 * export flag of the report's menu key, like the CSV and XLSX exports.
 */
export function registerTextExportRoute(app: FastifyInstance, service: EntityService, catalogue: ReportCatalogue, contextOf: ContextOf): void {
  app.get<{ Params: { name: string; format: string } }>('/api/report/:name/text/:format', async (request, reply) => {
    const { name, format } = request.params;
    const def = catalogue.get(name);
    if (!def) throw new AppError('NOT_FOUND', `There is no report "${name}"`);
    const ctx = contextOf(request);
    if (!service.policy.can(ctx, menuKeyOf(def), 'view') || !service.policy.can(ctx, menuKeyOf(def), 'export')) {
      throw new AppError('FORBIDDEN', `Your role may not export the report ${def.label.en}`);
    }
    const layout = def.textExports?.some((x) => x.format === format) ? TEXT_EXPORTS[format] : undefined;
    if (!layout) throw new AppError('NOT_FOUND', `The report ${def.name} has no text export "${format}"`);
    const params = parseParams(def, request.query as Record<string, unknown>);
    const rows: Record<string, unknown>[] = [];
    for await (const r of allRows(service, def, params, ctx, MAX_LINES)) rows.push(r);
    reply.header('content-type', 'text/plain; charset=utf-8');
    reply.header('access-control-expose-headers', 'content-disposition');
    reply.header('content-disposition', `attachment; filename="${layout.fileName(params)}"`);
    return reply.send(layout.text(rows, params));
  });
}
