import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { doneOf } from './document-progress.ts';
import { lineCapacities } from './line-capacity.ts';
import { linesOf, scaled, unscaled } from './document-lines.ts';
import { poolTaken } from './sale-balance.ts';

type Row = Record<string, unknown>;

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const empty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * A line typed by hand that names a whole source document through the `document.from[].documentLink`
 * field (a receipt line naming BN…) and no source line is spread, before the write is judged, over that
 * document's lines: each piece takes what is still open on one line (its capacity, less what posted
 * documents of this kind and this document's other lines already take), in the source's line order.
 * The pieces keep the link, so the form and the print still name the document, and each carries its
 * `source_line_id`: posting then counts and settles the source as it does for a document made from it
 * (the bill becomes partially paid or paid). What exceeds everything open stays on the last piece, so
 * posting refuses it with OVER_PROCESSED naming the source, as it would for a document made from it.
 */
export async function spreadDocumentLinks(k: Kysely<any>, service: EntityService, entity: EntitySchema, body: Row): Promise<void> {
  const specs = (entity.document?.from ?? []).filter((f): f is DocumentSource & { documentLink: string } => typeof f.documentLink === 'string');
  if (!specs.length || !entity.document?.lines) return;
  const lines = linesOf(service, entity);
  const input = body[lines.field];
  if (!Array.isArray(input)) return;
  await dropStaleSourceLines(k, service, specs, input as Row[]);
  if (!input.some((l) => specs.some((s) => isId((l as Row)?.[s.documentLink]) && empty((l as Row).source_line_id)))) return;
  const withSourceEntity = Boolean(lines.entity.fields.source_entity);
  // what this document's lines already take of each source line (lines made from the source keep theirs)
  const taken = new Map<string, number>();
  const takenKey = (source: string, id: number) => `${source}:${id}`;
  for (const l of input as Row[]) {
    if (!l || empty(l.source_line_id)) continue;
    const spec = specs.length === 1 && (entity.document.from ?? []).length === 1 ? specs[0] : specs.find((s) => s.source === l.source_entity);
    if (!spec) continue;
    const key = takenKey(spec.source, Number(l.source_line_id));
    taken.set(key, (taken.get(key) ?? 0) + scaled(lines.entity, spec.measure ?? 'qty', l[spec.measure ?? 'qty']));
  }
  const out: Row[] = [];
  for (const line of input as Row[]) {
    const spec = line && empty(line.source_line_id) ? specs.find((s) => isId(line[s.documentLink])) : undefined;
    if (!spec) { out.push(line); continue; }
    const measure = spec.measure ?? 'qty';
    const source = service.entity(spec.source);
    const caps = await lineCapacities(k, service, source, measure, [Number(line[spec.documentLink])]);
    if (!caps.size || typeof line[measure] !== 'number') { out.push(line); continue; } // not there, or no amount: the write's own checks answer
    const done = await poolTaken(k, service, spec, caps) ?? await doneOf(k, source.name, entity.name, [...caps.keys()]);
    let left = scaled(lines.entity, measure, line[measure]);
    const pieces: Array<{ sourceLineId: number; amount: number }> = [];
    for (const [id, cap] of caps) {
      const open = cap - (done.get(id) ?? 0) - (taken.get(takenKey(source.name, id)) ?? 0);
      if (open <= 0 || left <= 0) continue;
      const take = Math.min(open, left);
      pieces.push({ sourceLineId: id, amount: take });
      left -= take;
    }
    if (left > 0 || !pieces.length) {
      // more than is open: the excess stays on the last line, and posting refuses it naming the source
      const lastId = [...caps.keys()].at(-1)!;
      const last = pieces.at(-1);
      if (last) last.amount += left;
      else pieces.push({ sourceLineId: lastId, amount: left });
    }
    pieces.forEach((p, i) => {
      taken.set(takenKey(source.name, p.sourceLineId), (taken.get(takenKey(source.name, p.sourceLineId)) ?? 0) + p.amount);
      const piece: Row = { ...line, source_line_id: p.sourceLineId, [measure]: unscaled(lines.entity, measure, p.amount) };
      if (withSourceEntity) piece.source_entity = spec.source;
      if (i > 0) delete piece.id; // a kept line keeps its id on its first piece; the others are new lines
      out.push(piece);
    });
  }
  body[lines.field] = out;
}

/**
 * A line spread before that now names another document (the user picked another bill on it) keeps a source line
 * of the first one: it is dropped, so the line is spread again over the document it names now.
 */
async function dropStaleSourceLines(k: Kysely<any>, service: EntityService, specs: Array<DocumentSource & { documentLink: string }>, input: Row[]): Promise<void> {
  for (const spec of specs) {
    const named = input.filter((l) => l && isId(l[spec.documentLink]) && isId(l.source_line_id) && (l.source_entity === undefined || l.source_entity === null || l.source_entity === spec.source));
    if (!named.length) continue;
    const src = linesOf(service, service.entity(spec.source));
    const parentOf = new Map<number, number>();
    const ids = [...new Set(named.map((l) => Number(l.source_line_id)))];
    for (let at = 0; at < ids.length; at += 500) {
      for (const r of await k.selectFrom(src.entity.name).select(['id', src.parentField]).where('id', 'in', ids.slice(at, at + 500)).execute()) parentOf.set(Number(r.id), Number(r[src.parentField]));
    }
    for (const l of named) if (parentOf.get(Number(l.source_line_id)) !== Number(l[spec.documentLink])) l.source_line_id = null;
  }
}

/** Creates and updates spread such lines before they are judged (the link filter then checks each piece). */
export function installDocumentLinkSpread(service: EntityService): void {
  const declares = (e: EntitySchema) => (e.document?.from ?? []).some((f) => f.documentLink);
  service.onCreateDefaults(async (k, entity, body) => {
    if (declares(entity)) await spreadDocumentLinks(k, service, entity, body);
  });
  service.onUpdateDefaults(async (entity, _id, body) => {
    if (declares(entity)) await spreadDocumentLinks(service.db.kysely, service, entity, body);
  });
}
