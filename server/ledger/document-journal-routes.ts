import type { FastifyInstance } from 'fastify';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { AppError } from '../errors/app-error.ts';
import { journalOf } from './journal-writer.ts';
import { postsToBooks } from './journal-posting.ts';

type Row = Record<string, unknown>;

/** One line of a document's entry as its form shows it (รายการบัญชี). */
export interface DocumentJournalLine { account_id: number; account_code: string; account_name_th: string; account_name_en: string | null; debit: number; credit: number; description: string | null }
/** One entry written for a document: the posting, or a reversal (`reverses_id`) after a cancel. */
export interface DocumentJournalEntry { id: number; doc_no: string; doc_date: string; status: string; memo: string | null; reverses_id: number | null; lines: DocumentJournalLine[] }

const BATCH = 500;

/**
 * The journal entries a document wrote (its posting and any reversal), with their lines' account code and name.
 * The caller must be able to read the document (403 / 404 as GET /api/{entity}/{id}) and the journal
 * (403 FORBIDDEN: a role that does not see the books does not get them through a document); the entries
 * are read through the entity service, so the journal's row scope (its company) applies too.
 */
export async function documentJournal(service: EntityService, entityName: string, id: number, ctx: RequestContext): Promise<DocumentJournalEntry[]> {
  const entity = service.entity(entityName);
  await service.get(entity.name, id, ctx);
  const head = service.entity(journalOf(service.registry));
  service.policy.assertAllowed(ctx, head, 'read');
  const fields = 'id,doc_no,doc_date,status,memo,reverses_id';
  const query = service.parseQuery(head, { filter: JSON.stringify({ source_entity: { _eq: entity.name }, source_id: { _eq: id } }), fields, sort: 'id', limit: String(BATCH) }, ctx);
  const { rows } = await service.list(head.name, query, ctx);
  const entries: DocumentJournalEntry[] = [];
  const accountIds = new Set<number>();
  for (const r of rows) {
    // the lines as the journal's own GET answers them (money decoded)
    const full = await service.get(head.name, Number(r.id), ctx);
    const lines = ((full[head.document?.lines ?? 'items'] as Row[] | undefined) ?? []);
    for (const l of lines) accountIds.add(Number(l.account_id));
    entries.push({
      id: Number(r.id), doc_no: String(r.doc_no ?? ''), doc_date: String(r.doc_date ?? '').slice(0, 10), status: String(r.status ?? ''),
      memo: (r.memo as string | null) ?? null, reverses_id: r.reverses_id === null || r.reverses_id === undefined ? null : Number(r.reverses_id),
      lines: lines.map((l) => ({ account_id: Number(l.account_id), account_code: '', account_name_th: '', account_name_en: null, debit: Number(l.debit ?? 0), credit: Number(l.credit ?? 0), description: (l.description as string | null) ?? null })),
    });
  }
  // the accounts' code and name: what an entry's reader sees of the chart (the lines name them)
  const account = head.fields.items?.entity ? service.entity(service.entity(head.fields.items.entity).fields.account_id!.entity!) : null;
  const names = new Map<number, Row>();
  const ids = [...accountIds];
  for (let i = 0; account && i < ids.length; i += BATCH) {
    for (const a of await service.db.kysely.selectFrom(account.name).select(['id', 'code', 'name_th', 'name_en']).where('id', 'in', ids.slice(i, i + BATCH)).execute()) names.set(Number(a.id), a);
  }
  for (const e of entries) for (const l of e.lines) {
    const a = names.get(l.account_id);
    l.account_code = String(a?.code ?? '');
    l.account_name_th = String(a?.name_th ?? '');
    l.account_name_en = (a?.name_en as string | null | undefined) ?? null;
  }
  return entries;
}

/** `GET /api/{entity}/{id}/journal` for every document that posts to the books (`document.journal`). */
export function registerDocumentJournalRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all()) {
    if (!postsToBooks(service, entity)) continue;
    app.get<{ Params: { id: string } }>(`/api/${entity.name}/:id/journal`, async (request) => {
      const id = parseRecordId(request.params.id);
      if (id === null) throw new AppError('NOT_FOUND', `${entity.label.en} "${request.params.id}" does not exist`);
      // the journal's entity name with the entries: the form links to them without naming it
      return { success: true, data: { entity: journalOf(service.registry), entries: await documentJournal(service, entity.name, id, contextOf(request)) } };
    });
  }
}
