import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { inBatches } from '../db/batches.ts';
import { readForUpdate } from '../db/dialect-sql.ts';
import { linesOf } from './document-lines.ts';
import { heldBy, holdingLinks, type Dependent } from './cancel-holds.ts';

type Row = Record<string, unknown>;

/** The state a document's cancel action leads to (null when it has none). */
export function cancelledState(entity: EntitySchema): string | null {
  const action = entity.document?.cancelAction ?? 'cancel';
  return entity.workflow?.transitions.find((t) => t.action === action)?.to ?? null;
}

/**
 * The live documents made from this one: every posted document whose lines take
 * from its lines (`document_link`, written when the later document is posted and
 * removed when it is cancelled), not cancelled. Drafts made from it are not
 * dependents: they have taken nothing yet, and posting one later is refused while
 * its source is cancelled (the posting checks the source's state).
 */
export async function dependentsOf(trx: Kysely<any>, service: EntityService, entity: EntitySchema, lineIds: number[]): Promise<Dependent[]> {
  if (!lineIds.length) return [];
  const targetLines = new Map<string, Set<number>>();
  for (const batch of inBatches(lineIds, 1)) {
    const rows = await trx.selectFrom('document_link').select(['target_entity', 'target_line_id'])
      .where('source_entity', '=', entity.name).where('source_line_id', 'in', batch).execute();
    for (const r of rows) targetLines.set(String(r.target_entity), (targetLines.get(String(r.target_entity)) ?? new Set()).add(Number(r.target_line_id)));
  }
  const out: Dependent[] = [];
  for (const name of [...targetLines.keys()].sort()) {
    const target = service.registry.get(name);
    if (!target?.document?.lines || !target.workflow) continue;
    const lines = linesOf(service, target);
    const heads = new Set<number>();
    for (const batch of inBatches([...targetLines.get(name)!], 1)) {
      for (const r of await trx.selectFrom(lines.entity.name).select(lines.parentField).where('id', 'in', batch).execute()) heads.add(Number(r[lines.parentField]));
    }
    const gone = cancelledState(target);
    for (const batch of inBatches([...heads].sort((a, b) => a - b), 1)) {
      const rows = await trx.selectFrom(target.name).select(['id', target.titleField, target.workflow.field]).where('id', 'in', batch).orderBy('id').execute() as Row[];
      for (const r of rows) {
        if (gone !== null && r[target.workflow.field] === gone) continue;
        out.push({ entity: target.name, id: Number(r.id), number: String(r[target.titleField] ?? r.id), label: target.label });
      }
    }
  }
  return out;
}

/** "ใบลดหนี้ CN202611-0001, ใบวางบิล BN-3" in each language, at most `max` named. */
function listText(deps: Dependent[], max = 10): { th: string; en: string } {
  const more = deps.length > max ? deps.length - max : 0;
  const shown = deps.slice(0, max);
  return {
    th: shown.map((d) => `${d.label.th} ${d.number}`).join(', ') + (more ? ` และอีก ${more} ฉบับ` : ''),
    en: shown.map((d) => `${d.label.en} ${d.number}`).join(', ') + (more ? ` and ${more} more` : ''),
  };
}

/**
 * Cancelling a document from which live documents were made would leave them
 * standing on nothing (an issued credit note of a cancelled invoice, a billing
 * note of a cancelled order): it is refused with 409 HAS_DEPENDENTS naming them,
 * until they are cancelled first. Runs for every document entity's cancel action.
 *
 * Posting takes the same lock from the other side: a document made from others
 * locks its sources' headers while it posts and then checks they are not
 * cancelled, so a cancel and a posting that cross each other cannot both pass
 * (the cancel's status update holds the header's row lock until it commits).
 * Registered before the posting listener, so every posting and cancel of a
 * document made from others locks in one order: its own header, its sources'
 * headers, then the progress counters (no deadlock between them).
 *
 * Records that name the document through a header link declared `"onCancel": "restrict"` (a 50 ทวิ certificate
 * naming its payment voucher, cancel-holds.ts) are dependents too, whether or not the document has lines.
 */
export function installCancelGuard(service: EntityService): void {
  service.onAction(async (trx, e) => {
    const d = e.entity.document ?? {};
    const cancelling = e.action === (d.cancelAction ?? 'cancel');
    if (cancelling) await refuseIfDependents(trx, service, e);
    if (d.lines && d.from?.length && (cancelling || e.action === (d.postAction ?? 'approve'))) {
      await holdSources(trx, service, e, cancelling ? e.before : e.after, !cancelling);
    }
  }, (entity) => !!entity.document?.lines || (!!entity.workflow && holdingLinks(service.registry.all(), entity.name).length > 0));
}

async function refuseIfDependents(trx: Kysely<any>, service: EntityService, e: ActionEvent): Promise<void> {
  let deps: Dependent[] = [];
  if (e.entity.document?.lines) {
    const lines = linesOf(service, e.entity);
    const lineIds = ((e.before[lines.field] as Row[] | undefined) ?? []).map((l) => Number(l.id));
    deps = await dependentsOf(trx, service, e.entity, lineIds);
  }
  deps = [...deps, ...await heldBy(trx, service, e.entity, e.id)];
  if (!deps.length) return;
  const number = String(e.before[e.entity.titleField] ?? e.id);
  const list = listText(deps);
  throw new AppError('HAS_DEPENDENTS',
    `${e.entity.label.en} ${number} cannot be cancelled: documents made from it are still live (${list.en}); cancel them first`,
    { dependents: deps.map(({ entity, id, number: no }) => ({ entity, id, number: no })) },
    { entity: e.entity.label, number, dependents: list });
}

/**
 * Locks the headers of the documents this one takes from (PostgreSQL: FOR
 * UPDATE, the lock their status updates take anyway; SQLite has one writer)
 * and, for a posting, refuses when one of them is cancelled by now.
 */
async function holdSources(trx: Kysely<any>, service: EntityService, e: ActionEvent, doc: Row, refuseCancelled: boolean): Promise<void> {
  const lines = linesOf(service, e.entity);
  const from = e.entity.document!.from!;
  const bySource = new Map<string, Set<number>>();
  for (const line of (doc[lines.field] as Row[] | undefined) ?? []) {
    if (line.source_line_id === null || line.source_line_id === undefined) continue;
    const source = from.length === 1 ? from[0]!.source : String(line.source_entity ?? lines.entity.fields.source_entity?.default ?? '');
    if (!from.some((f) => f.source === source)) continue;
    bySource.set(source, (bySource.get(source) ?? new Set()).add(Number(line.source_line_id)));
  }
  for (const name of [...bySource.keys()].sort()) {
    const source = service.entity(name);
    if (!source.workflow || !source.document?.lines) continue;
    const srcLines = linesOf(service, source);
    const heads = new Set<number>();
    for (const batch of inBatches([...bySource.get(name)!], 1)) {
      for (const r of await trx.selectFrom(srcLines.entity.name).select(srcLines.parentField).where('id', 'in', batch).execute()) heads.add(Number(r[srcLines.parentField]));
    }
    const gone = cancelledState(source);
    for (const batch of inBatches([...heads].sort((a, b) => a - b), 1)) {
      let q = trx.selectFrom(source.name).select(['id', source.titleField, source.workflow.field]).where('id', 'in', batch).orderBy('id');
      q = readForUpdate(trx, q);
      for (const r of await q.execute() as Row[]) {
        if (!refuseCancelled || gone === null || r[source.workflow.field] !== gone) continue;
        const no = String(r[source.titleField] ?? r.id);
        throw new AppError('INVALID_TRANSITION', `${source.label.en} ${no} is cancelled, so nothing can be posted from it`, { source: no, state: gone });
      }
    }
  }
}
