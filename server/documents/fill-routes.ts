import type { FastifyInstance } from 'fastify';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { AppError } from '../errors/app-error.ts';
import { normalizeDecimalStrings } from '../../engine/validation/decimal-strings.ts';
import { bodyError } from '../crud/record-values.ts';
import { applyDocumentFills, fillReader, hasDocumentFills } from './document-fills.ts';

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => !!v && typeof v === 'object' && !Array.isArray(v);

/** The fields a change refills: the fills that follow it, and the due dates that follow those. */
function targetsOf(entity: EntitySchema, changed: string): string[] {
  const out = Object.entries(entity.fields).filter(([, f]) => f.fillFrom?.link === changed).map(([n]) => n);
  for (const [n, f] of Object.entries(entity.fields)) {
    const head = f.dateFrom?.days.split('.')[0];
    if (f.dateFrom && (f.dateFrom.date === changed || head === changed || out.includes(head!))) out.push(n);
  }
  return out;
}

/**
 * POST /api/<entity>/fills {record, changed}: what the schema's fills give when
 * `changed` (a header field, or `items.2.product_id` on a line) has just been set,
 * as `{path: value}` for the fields it refills. The form asks this as a person types,
 * so a screen runs the very rules a create or update gets (document-fills.ts); it
 * keeps what the person typed over a fill. Reads go through the caller's rights.
 */
export function registerFillRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all()) {
    if (!hasDocumentFills(entity, (n) => service.registry.get(n))) continue;
    app.post(`/api/${entity.name}/fills`, async (request) => {
      const ctx = contextOf(request);
      const e = service.entity(entity.name);
      // fills serve a record being written: a reader who may neither create nor update gets none (price lists
      // are read as the system, so answering a view-only caller would show it prices it may not read)
      try { service.policy.assertAllowed(ctx, e, 'create'); } catch { service.policy.assertAllowed(ctx, e, 'update'); }
      const sent = request.body as { record?: unknown; changed?: unknown } | null;
      if (!isRow(sent) || !isRow(sent.record) || typeof sent.changed !== 'string' || sent.changed.length > 200) {
        throw new AppError('BAD_REQUEST', 'send {"record": {...}, "changed": "<field>" or "<lines>.<index>.<field>"}');
      }
      const record = normalizeDecimalStrings(e, sent.record, (n) => service.registry.get(n)) as Row;
      // validated before a fill computes from it (write pipeline, docs/architecture.md); the form sends the whole
      // record it shows, read-only and system fields too, which a fill ignores, so only what it would misread is refused
      // a field the person has not chosen yet (a required list left empty) is no reason to refuse a fill either
      const problems = service.validators.get(e, 'shape')(record)
        .filter((p) => p.code !== 'read_only' && p.code !== 'unknown_field' && record[p.field] !== null && record[p.field] !== '');
      if (problems.length) throw bodyError(problems);
      const parts = sent.changed.split('.');
      const reader = fillReader(service, ctx);
      const data: Row = {};
      if (parts.length === 3) {
        const [linesName, index, field] = parts as [string, string, string];
        const lines = e.fields[linesName]?.type === 'lines' ? record[linesName] : undefined;
        const line = Array.isArray(lines) ? lines[Number(index)] : undefined;
        if (!isRow(line)) throw new AppError('BAD_REQUEST', `"${sent.changed}" names no line of the record`);
        const child = service.entity(e.fields[linesName]!.entity!);
        const targets = Object.entries(child.fields)
          .filter(([, g]) => g.fillFrom?.link === field || (!!g.fillFrom?.priceList && field === 'qty')).map(([n]) => n);
        const copy = { ...line };
        for (const t of targets) delete copy[t];
        const header = { ...record, [linesName]: [copy] };
        await applyDocumentFills(reader, e, header, null);
        for (const t of targets) if (copy[t] !== undefined) data[`${linesName}.${index}.${t}`] = copy[t];
        return { success: true, data };
      }
      if (parts.length !== 1 || !e.fields[parts[0]!]) throw new AppError('BAD_REQUEST', `"${sent.changed}" is not a field of ${e.name}`);
      const targets = targetsOf(e, parts[0]!);
      const body: Row = {};
      // the header alone: a changed customer does not reprice lines already typed
      for (const [n, f] of Object.entries(e.fields)) if (f.type !== 'lines' && n in record && !targets.includes(n)) body[n] = record[n];
      await applyDocumentFills(reader, e, body, null);
      for (const t of targets) if (body[t] !== undefined) data[t] = body[t];
      return { success: true, data };
    });
  }
}
