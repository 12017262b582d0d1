import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { fieldOf, type FieldDef } from '../../engine/schema/schema-types.ts';
import { fieldJsonSchema } from '../../engine/validation/entity-json-schema.ts';
import { decimalPlaces } from '../../engine/validation/value-limits.ts';
import { bodyError } from '../crud/record-values.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { doneOf } from './document-progress.ts';
import { linesOf, scaled, unscaled } from './document-lines.ts';
import { capacitiesOf } from './line-capacity.ts';
import { DiscountCarry } from './discount-carry.ts';
import { poolTaken } from './sale-balance.ts';
import { refuseBeforeSource } from './document-dates.ts';

type Row = Record<string, unknown>;
const MAX_SOURCES = 50;

export interface CreateFromBody {
  ids?: unknown;
  lines?: unknown;
  /**
   * Header fields of the new document that the sources do not give (a credit note's reason, the
   * date, a reference, a remark): written through the ordinary create, so unknown, read-only and
   * status fields and the field write rules answer 4xx as on POST /api/{target}. A field the
   * sources give (the customer) may be sent only with the same value.
   */
  values?: unknown;
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { fields: [{ field, code: 'type', message }] });
}

/** The source declaration of `target` for `source`, or 404 when the target is not made from it. */
export function sourceSpec(target: EntitySchema, source: string): DocumentSource {
  const spec = target.document?.from?.find((f) => f.source === source);
  if (!spec) throw new AppError('NOT_FOUND', `A ${target.label.en} cannot be created from ${source}`);
  return spec;
}

/** A measured value's decimals and bound by the target line's field (judged even when the line computes that field). */
function measuredProblems(field: FieldDef | undefined, v: number): FieldError[] {
  if (!field) return [];
  const bound = fieldJsonSchema({ ...field, required: true, readOnly: false }) as { maximum?: number; 'x-scale'?: number };
  const scale = bound['x-scale'] ?? 0;
  if (decimalPlaces(v) > scale) return [{ field: '', code: 'x-scale', message: `must have at most ${scale} decimal places`, params: { limit: scale } }];
  if (bound.maximum !== undefined && v > bound.maximum) return [{ field: '', code: 'maximum', message: `must be at most ${bound.maximum}`, params: { limit: bound.maximum } }];
  return [];
}

/** `judge`: what the target line's measured field says of a value (decimals, bounds), as a create would. */
function parseBody(body: CreateFromBody | null, judge: (value: number) => FieldError[]): { ids: number[]; lines: Map<number, number> | null } {
  const ids = body?.ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_SOURCES) throw invalid('ids', `must be a list of 1 to ${MAX_SOURCES} document ids`);
  const parsed = ids.map((v) => (typeof v === 'number' || typeof v === 'string' ? parseRecordId(String(v)) : null));
  if (parsed.some((v) => v === null)) throw invalid('ids', 'must hold positive whole numbers');
  if (body?.lines === undefined) return { ids: [...new Set(parsed as number[])], lines: null };
  if (!Array.isArray(body.lines) || body.lines.length > 1000) throw invalid('lines', 'must be a list of at most 1000 {source_line_id, qty} (or {source_line_id, amount})');
  const lines = new Map<number, number>();
  body.lines.forEach((l: unknown, i) => {
    const r = l as { source_line_id?: unknown; qty?: unknown } | null;
    const id = parseRecordId(String(r?.source_line_id ?? ''));
    // the measured value: a quantity, or an amount for documents measured by amount (billing, receipts)
    const asked = (r as { amount?: unknown } | null)?.amount ?? r?.qty;
    const qty = typeof asked === 'string' ? Number(asked) : asked;
    if (id === null) throw invalid(`lines.${i}.source_line_id`, 'must be the id of a line of the source documents');
    if (typeof qty !== 'number' || !Number.isFinite(qty) || qty <= 0) throw invalid(`lines.${i}.qty`, 'must be a number above 0');
    // 1.005 of a 2-decimal field is refused, not rounded to 1.00 (issue 44 §9)
    const problems = judge(qty).map((p) => ({ ...p, field: `lines.${i}.${r?.qty === undefined ? 'amount' : 'qty'}` }));
    if (problems.length) throw bodyError(problems);
    lines.set(id, qty);
  });
  return { ids: [...new Set(parsed as number[])], lines };
}

/**
 * Builds a new document from one or more source documents, carrying what is
 * still open on their lines (or the quantities asked for), and creates it
 * through the ordinary create path: the caller's rights, validation, numbering
 * and audit all apply. Posting it later counts the quantities for good.
 */
export async function createFrom(service: EntityService, targetName: string, sourceName: string, body: CreateFromBody | null, ctx: RequestContext): Promise<Row> {
  const target = service.entity(targetName);
  const spec = sourceSpec(target, sourceName);
  const source = service.entity(sourceName);
  const measure = spec.measure ?? 'qty';
  const srcLines = linesOf(service, source);
  const tgtLines = linesOf(service, target);
  const { ids, lines: asked } = parseBody(body, (v) => measuredProblems(fieldOf(tgtLines.entity, measure), v));
  const docs = [];
  for (const id of ids) docs.push(await service.get(sourceName, id, ctx));
  const header: Row = {};
  for (const doc of docs) {
    const state = String(doc[source.workflow!.field]);
    const no = String(doc[source.titleField] ?? doc.id);
    if (![...spec.states, spec.partial, spec.complete].includes(state)) {
      throw new AppError('INVALID_TRANSITION', `${source.label.en} ${no} is ${state}; a ${target.label.en} is made only from ${[...spec.states, spec.partial].filter(Boolean).join(' or ')} ones`, { source: no, state });
    }
    for (const h of spec.header ?? []) {
      if (h in header && JSON.stringify(header[h]) !== JSON.stringify(doc[h] ?? null)) {
        throw new AppError('VALIDATION_FAILED', `ids: ${source.labelPlural?.en ?? source.label.en} with different ${h} cannot go into one ${target.label.en}`, { fields: [{ field: 'ids', code: 'source', message: `the documents have different ${h}` }] });
      }
      header[h] = doc[h] ?? null;
    }
  }
  const all = docs.flatMap((d) => (d[srcLines.field] as Row[]).map((l) => ({ doc: d, line: l })));
  if (asked) {
    const known = new Set(all.map((x) => Number(x.line.id)));
    const foreign = [...asked.keys()].filter((id) => !known.has(id));
    if (foreign.length) throw invalid('lines', `lines ${foreign.join(', ')} are not lines of the chosen documents`);
  }
  const caps = new Map<number, number>();
  for (const doc of docs) for (const [id, cap] of capacitiesOf(source, srcLines.entity, doc, doc[srcLines.field] as Row[], measure)) caps.set(id, cap);
  // a shared capacity (an order's bills and receipts) counts every member's take, not only this kind's
  const done = await poolTaken(service.db.kysely, service, spec, caps) ?? await doneOf(service.db.kysely, source.name, target.name, all.map((x) => Number(x.line.id)));
  const carry = measure === 'qty' ? new DiscountCarry(service, source, target, spec) : null;
  const out: Row[] = [];
  for (const { doc, line } of all) {
    const id = Number(line.id);
    if (asked && !asked.has(id)) { carry?.skip(doc); continue; }
    const left = (caps.get(id) ?? 0) - (done.get(id) ?? 0);
    const want = asked ? scaled(tgtLines.entity, measure, asked.get(id)) : left;
    if (want > left) {
      throw new AppError('OVER_PROCESSED', `line ${line.line_no} of ${source.label.en} ${doc[source.titleField]} has only ${unscaled(srcLines.entity, measure, left)} ${measure} left, not ${asked!.get(id)}`, {
        source_line_id: id, remaining: unscaled(srcLines.entity, measure, left), asked: asked!.get(id),
      });
    }
    if (want <= 0 || want < left) carry?.skip(doc);
    if (want <= 0) continue;
    const copy: Row = { source_line_id: id, [measure]: unscaled(tgtLines.entity, measure, want) };
    for (const f of spec.lineFields ?? []) if (f !== measure) copy[f] = line[f] ?? null;
    // the line names the document it settles as a whole too (a receipt line's bill), as a hand-typed line does
    if (spec.documentLink) copy[spec.documentLink] = Number(doc.id);
    carry?.line(doc, line, copy, caps.get(id) ?? 0, done.get(id) ?? 0, want);
    if ((target.document?.from?.length ?? 0) > 1) copy.source_entity = source.name;
    out.push(copy);
  }
  if (!out.length) throw new AppError('OVER_PROCESSED', `Nothing is left to take into a ${target.label.en}: every line of the chosen ${source.labelPlural?.en ?? source.label.en} is fully processed`);
  const values = body?.values;
  if (values !== undefined && (typeof values !== 'object' || values === null || Array.isArray(values))) throw invalid('values', 'must be an object of header fields');
  const extra = { ...(values as Row | undefined) };
  if (tgtLines.field in extra) throw invalid(`values.${tgtLines.field}`, 'the lines come from the source documents; send what to take as lines');
  // a header value the sources give is theirs: a different one would make a document that contradicts its source
  const clash = Object.keys(header).filter((h) => h in extra && extra[h] !== null && JSON.stringify(extra[h]) !== JSON.stringify(header[h]));
  if (clash.length) {
    throw new AppError('VALIDATION_FAILED', `values: ${clash.join(', ')} come from the source documents and cannot be changed here`, {
      fields: clash.map((field) => ({ field: `values.${field}`, code: 'source', message: 'comes from the source documents' })),
    });
  }
  // a date asked for that is before a source answers now, not when the draft is posted
  for (const doc of docs) refuseBeforeSource(target, source, spec, extra, doc, String(doc[source.titleField] ?? doc.id));
  await carry?.finish(service.db.kysely);
  return service.create(targetName, { ...carry?.header(), ...headerDefaults(spec, docs, extra), ...extra, ...header, [tgtLines.field]: out }, ctx);
}

/**
 * The header values the sources suggest (`headerDefaults`: a goods receipt's warehouse from its purchase order's),
 * for those the request leaves out: taken when every source has the same value, left to the person otherwise.
 */
function headerDefaults(spec: DocumentSource, docs: Row[], sent: Row): Row {
  const out: Row = {};
  for (const [to, of] of Object.entries(spec.headerDefaults ?? {})) {
    if (sent[to] !== undefined && sent[to] !== null) continue;
    const values = new Set(docs.map((d) => JSON.stringify(d[of] ?? null)));
    const only = values.size === 1 ? JSON.parse([...values][0]!) as unknown : null;
    if (only !== null) out[to] = only;
  }
  return out;
}

export interface OpenLine {
  document_id: number;
  document_no: string;
  document_date: unknown;
  source_line_id: number;
  line_no: unknown;
  description: unknown;
  product_id: unknown;
  /** The line's product as the caller may read it (null when it has none or may not). */
  product_code: string | null;
  product_name: string | null;
  product_name_en: string | null;
  measure: string;
  ordered: number;
  done: number;
  remaining: number;
}

/**
 * What is still open on the lines of the chosen source documents for a target
 * (the create-from screen shows it before anything is made): read as the
 * caller, so rows out of its scope answer 404 like a read would.
 */
export async function openLines(service: EntityService, targetName: string, sourceName: string, rawIds: unknown, ctx: RequestContext): Promise<OpenLine[]> {
  const target = service.entity(targetName);
  const spec = sourceSpec(target, sourceName);
  const source = service.entity(sourceName);
  // progress on the target's documents is the target's business: its readers only
  service.policy.assertAllowed(ctx, target, 'read');
  const text = typeof rawIds === 'string' ? rawIds : '';
  const ids = [...new Set(text.split(',').filter(Boolean).map((v) => parseRecordId(v)))];
  if (!ids.length || ids.length > MAX_SOURCES || ids.some((v) => v === null)) throw new AppError('INVALID_QUERY', `ids must be 1 to ${MAX_SOURCES} document ids, separated by commas`);
  const measure = spec.measure ?? 'qty';
  const srcLines = linesOf(service, source);
  const out: OpenLine[] = [];
  const products = new Map<number, Row | null>();
  // the entity the source lines' product_id links to (no entity is named here)
  const productLink = fieldOf(srcLines.entity, 'product_id');
  const productEntity = productLink?.type === 'link' ? productLink.entity : undefined;
  const productOf = async (v: unknown): Promise<Row | null> => {
    const pid = Number(v);
    if (!Number.isInteger(pid) || pid < 1 || !productEntity || !service.registry.get(productEntity)) return null;
    // read as the caller: a product outside its rights shows no name, as a list would
    if (!products.has(pid)) products.set(pid, await service.get(productEntity, pid, ctx).catch(() => null));
    return products.get(pid)!;
  };
  for (const id of ids as number[]) {
    const doc = await service.get(sourceName, id, ctx);
    const lines = (doc[srcLines.field] as Row[]) ?? [];
    const caps = capacitiesOf(source, srcLines.entity, doc, lines, measure);
    const done = await poolTaken(service.db.kysely, service, spec, caps) ?? await doneOf(service.db.kysely, source.name, target.name, lines.map((l) => Number(l.id)));
    for (const l of lines) {
      const total = caps.get(Number(l.id)) ?? 0;
      const taken = done.get(Number(l.id)) ?? 0;
      const product = await productOf(l.product_id);
      out.push({
        document_id: id, document_no: String(doc[source.titleField] ?? id), document_date: doc.doc_date ?? doc.bill_date ?? null,
        source_line_id: Number(l.id), line_no: l.line_no ?? null, description: l.description ?? null, product_id: l.product_id ?? null,
        product_code: product?.code === undefined || product.code === null ? null : String(product.code),
        product_name: product ? String(product.name_th ?? product.name ?? '') || null : null,
        product_name_en: product ? String(product.name_en ?? product.name_th ?? product.name ?? '') || null : null,
        measure, ordered: unscaled(srcLines.entity, measure, total), done: unscaled(srcLines.entity, measure, taken), remaining: unscaled(srcLines.entity, measure, Math.max(total - taken, 0)),
      });
    }
  }
  return out;
}
