import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { createFromScreen, type CreateFromScreen } from '../../engine/documents/create-from-labels.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { AppError } from '../errors/app-error.ts';
import { linesOf } from './document-lines.ts';
import { processedState } from './line-capacity.ts';

type Row = Record<string, unknown>;

/** A document of the chain as a form links it: its entity, id, number and status. */
export interface ChainDocument { entity: string; id: number; title: string; status: string | null }

/** The answer of GET /api/{entity}/{id}/related. */
export interface DocumentChain {
  /** The documents this one was made from (its lines' `source_line_id`). */
  sources: ChainDocument[];
  /** The documents made from this one, drafts included (their lines point at its lines). */
  made: ChainDocument[];
  /** Create-from screens this record can open now (its state allows it, something is left to take, the caller may create the target). */
  create: Array<CreateFromScreen & { href: string }>;
}

const BATCH = 500;

/** Parent ids of the lines of `lines` whose ids are given (a batch at a time: no huge IN lists). */
async function parentsOf(k: Kysely<any>, lines: { entity: EntitySchema; parentField: string }, lineIds: number[]): Promise<number[]> {
  const out = new Set<number>();
  for (let i = 0; i < lineIds.length; i += BATCH) {
    const rows = await k.selectFrom(lines.entity.name).select(lines.parentField).where('id', 'in', lineIds.slice(i, i + BATCH)).execute();
    for (const r of rows) out.add(Number(r[lines.parentField]));
  }
  return [...out];
}

/** The documents of `entity` with these ids that the caller may read (row scope applies), or none when it may not read them. */
async function readable(service: EntityService, entity: EntitySchema, ids: number[], ctx: RequestContext): Promise<ChainDocument[]> {
  if (!ids.length) return [];
  try { service.policy.assertAllowed(ctx, entity, 'read'); } catch { return []; }
  const status = entity.workflow?.field;
  const fields = ['id', entity.titleField, ...(status ? [status] : [])].filter((f, i, a) => a.indexOf(f) === i).join(',');
  const out: ChainDocument[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const query = service.parseQuery(entity, { filter: JSON.stringify({ id: { _in: ids.slice(i, i + BATCH) } }), fields, sort: 'id', limit: String(BATCH) }, ctx);
    const { rows } = await service.list(entity.name, query, ctx);
    for (const r of rows) out.push({ entity: entity.name, id: Number(r.id), title: String(r[entity.titleField] ?? ''), status: status ? (r[status] as string | null) ?? null : null });
  }
  return out;
}

/** Line ids of `lineEntity` pointing at `sourceLineIds` of `source` (by `source_entity` too when the lines carry several sources). */
async function linesPointingAt(k: Kysely<any>, lineEntity: EntitySchema, source: string, sourceLineIds: number[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < sourceLineIds.length; i += BATCH) {
    let q = k.selectFrom(lineEntity.name).select('id').where('source_line_id', 'in', sourceLineIds.slice(i, i + BATCH));
    if (lineEntity.fields.source_entity) q = q.where((eb) => eb.or([eb('source_entity', '=', source), eb('source_entity', 'is', null)]));
    out.push(...(await q.execute()).map((r) => Number(r.id)));
  }
  return out;
}

/** The chain around one document: where it came from, what was made from it, and what it can be made into now. */
export async function documentChain(service: EntityService, entityName: string, id: number, ctx: RequestContext): Promise<DocumentChain> {
  const entity = service.entity(entityName);
  // the record itself in the caller's scope: 403 without view, 404 outside the scope
  const record = await service.get(entity.name, id, ctx);
  const k = service.db.kysely;
  const lines = linesOf(service, entity);
  const own = ((record[lines.field] as Row[] | undefined) ?? []);
  const ownIds = own.map((l) => Number(l.id));

  const sources: ChainDocument[] = [];
  for (const spec of entity.document?.from ?? []) {
    const ids = own.filter((l) => l.source_line_id !== null && l.source_line_id !== undefined && (l.source_entity === undefined || l.source_entity === null || l.source_entity === spec.source))
      .map((l) => Number(l.source_line_id));
    if (!ids.length) continue;
    const source = service.entity(spec.source);
    sources.push(...await readable(service, source, await parentsOf(k, linesOf(service, source), ids), ctx));
  }

  const made: ChainDocument[] = [];
  const create: DocumentChain['create'] = [];
  const state = entity.workflow ? String(record[entity.workflow.field] ?? '') : '';
  for (const target of service.registry.all()) {
    const spec: DocumentSource | undefined = target.document?.from?.find((f) => f.source === entity.name);
    if (!spec || !target.document?.lines) continue;
    const targetLines = linesOf(service, target);
    if (ownIds.length && targetLines.entity.fields.source_line_id) {
      made.push(...await readable(service, target, await parentsOf(k, targetLines, await linesPointingAt(k, targetLines.entity, entity.name, ownIds)), ctx));
    }
    let mayCreate = true;
    try { service.policy.assertAllowed(ctx, target, 'create'); } catch { mayCreate = false; }
    // a source its target has taken all of offers nothing more (a fully invoiced order: no "ออกใบกำกับภาษี")
    if (mayCreate && [...spec.states, ...(spec.partial ? [spec.partial] : [])].includes(state)
      && !(await processedState(k, service, entity, target, spec.measure ?? 'qty', id)).all) {
      const screen = createFromScreen(target, spec, entity);
      create.push({ ...screen, href: `${screen.path}?source=${id}` });
    }
  }
  return { sources, made, create };
}

/** `GET /api/{entity}/{id}/related` for every document that has lines and takes part in a chain. */
export function registerDocumentChainRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  const all = service.registry.all();
  const sourceNames = new Set(all.flatMap((e) => (e.document?.from ?? []).map((f) => f.source)));
  for (const entity of all) {
    if (!entity.document?.lines || !(entity.document.from?.length || sourceNames.has(entity.name))) continue;
    app.get<{ Params: { id: string } }>(`/api/${entity.name}/:id/related`, async (request) => {
      const id = parseRecordId(request.params.id);
      if (id === null) throw new AppError('NOT_FOUND', `${entity.label.en} "${request.params.id}" does not exist`);
      return { success: true, data: await documentChain(service, entity.name, id, contextOf(request)) };
    });
  }
}
