import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { JournalAmount, JournalLineSpec } from '../../engine/schema/journal-spec-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { isEmpty } from '../crud/record-values.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { accountOfRole, balanced, partyOf, roleAccounts, writeEntry, type EntryLine } from './journal-writer.ts';
import { companyOf, numberOf, postsToBooks } from './journal-posting.ts';

type Row = Record<string, unknown>;
const satang = (v: unknown) => (isEmpty(v) ? 0 : Math.round(Number(v) * 100));

/** The role of a line by a field of a row (as journal-posting.ts). */
function roleBy(spec: JournalLineSpec, row: Row): string {
  if (typeof spec.role === 'string') return spec.role;
  return spec.role.roles[String(row[spec.role.field] ?? '')] ?? Object.values(spec.role.roles)[0]!;
}

/** A change's amounts per role: header fields by how much they moved, lines the change added, stock movements it wrote. */
async function changeAmounts(trx: Kysely<any>, ledger: string, entity: EntitySchema, before: Row, after: Row, spec: JournalLineSpec, a: JournalAmount, movedAfter: number): Promise<Array<[string, number]>> {
  if (typeof a === 'string') return [[roleBy(spec, after), satang(after[a]) - satang(before[a])]];
  if ('sourceValue' in a || 'saleBalance' in a) return []; // refused in returns at start (journal-keys-check.ts)
  if ('stock' in a) {
    const row = await trx.selectFrom(ledger).select((eb) => eb.fn.sum<number>('value').as('v'))
      .where('doc_entity', '=', entity.name).where('doc_id', '=', Number(after.id)).where('direction', '=', a.stock).where('id', '>', movedAfter).executeTakeFirst();
    return [[roleBy(spec, after), Number(row?.v ?? 0)]];
  }
  const known = new Set(((before[a.lines] as Row[] | undefined) ?? []).map((l) => Number(l.id)));
  const out = new Map<string, number>();
  for (const l of (after[a.lines] as Row[] | undefined) ?? []) {
    if (known.has(Number(l.id))) continue;
    const role = roleBy(spec, l);
    out.set(role, (out.get(role) ?? 0) + satang(l[a.amount]));
  }
  return [...out];
}

/**
 * Schema key `document.journal.returns`: a change the document's own route writes besides its workflow (a POS
 * sale's partial return, told as an update whose workflow action is `write`) posts its own entry, after the
 * stock movements the change wrote (the transaction's last steps).
 */
export function installReturnPosting(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    const entity = service.entity(e.entity);
    const spec = entity.document!.journal!.returns!;
    if (e.workflowAction !== spec.write || !e.before || !e.after) return;
    // the stock ledger (`"holds": "stockMovements"`): a sale's return moves stock
    const ledger = service.registry.held('stockMovements');
    const last = await trx.selectFrom(ledger).select((eb) => eb.fn.max<number>('id').as('m')).executeTakeFirst();
    const movedAfter = Number(last?.m ?? 0);
    const before = e.before;
    const after = e.after;
    await service.beforeCommit(trx, async () => {
      const companyId = await companyOf(trx, entity, after);
      if (companyId === null) return;
      const roles = await roleAccounts(trx, service);
      const j = entity.document!.journal!;
      const partyKind = j.party ? entity.fields[j.party]?.entity : undefined;
      const lines: EntryLine[] = [];
      for (const l of spec.lines) {
        const debit = l.debit !== undefined;
        for (const [role, amount] of await changeAmounts(trx, ledger, entity, before, after, l, (l.debit ?? l.credit)!, movedAfter)) {
          const party = l.party && j.party && !isEmpty(after[j.party]) ? Number(after[j.party]) : null;
          lines.push({ accountId: accountOfRole(roles, role), debit: debit ? amount : 0, credit: debit ? 0 : amount, ...partyOf(service, partyKind, party) });
        }
      }
      const out = balanced(lines, roles);
      if (!out.length) return;
      const no = numberOf(entity, after);
      await writeEntry(trx, service, {
        companyId, date: businessToday(businessClock.now(), businessClock.timeZone), journal: j.journal, sourceEntity: entity.name, sourceId: Number(after.id),
        sourceDocNo: no, memo: `${entity.label.th} ${no} (คืนสินค้า)`, lines: out,
      });
    });
  }, (entity) => postsToBooks(service, entity) && Boolean(entity.document?.journal?.returns));
}
