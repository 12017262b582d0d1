import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { isEmpty } from '../crud/record-values.ts';
import { inBatches } from '../db/batches.ts';
import { linesOf } from '../documents/document-lines.ts';
import { sourceOf } from '../documents/document-posting.ts';
import { accountOfRole, partyOf, roleAccounts, writeEntry, journalOf, POSTED } from './journal-writer.ts';

type Row = Record<string, unknown>;
/** Documents as entity name -> ids. */
type Docs = Map<string, Set<number>>;

const MAX_DEPTH = 6;
const add = (docs: Docs, entity: string, id: number) => docs.set(entity, (docs.get(entity) ?? new Set()).add(id));

/** The headers of these lines (entity, line id). */
async function headersOf(k: Kysely<any>, service: EntityService, lines: { entity: string; lineId: number }[], out: Docs): Promise<void> {
  for (const entity of new Set(lines.map((l) => l.entity))) {
    const src = linesOf(service, service.entity(entity));
    const ids = [...new Set(lines.filter((l) => l.entity === entity).map((l) => l.lineId))];
    for (const batch of inBatches(ids, 1)) {
      for (const r of await k.selectFrom(src.entity.name).select(src.parentField).where('id', 'in', batch).execute()) add(out, entity, Number(r[src.parentField]));
    }
  }
}

/**
 * The sale a document's lines come from (the documents its lines were made from) and every document made from
 * them, directly or through others (a receipt of a bill of the order), through `document_link` written at posting.
 */
async function saleDocuments(k: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row): Promise<Docs> {
  const lines = linesOf(service, entity);
  const first: { entity: string; lineId: number }[] = [];
  for (const l of (doc[lines.field] as Row[] | undefined) ?? []) {
    if (isEmpty(l.source_line_id)) continue;
    const spec = sourceOf(entity, lines.entity, l);
    if (spec) first.push({ entity: spec.source, lineId: Number(l.source_line_id) });
  }
  const all: Docs = new Map();
  let level: Docs = new Map();
  await headersOf(k, service, first, level);
  for (let depth = 0; depth < MAX_DEPTH && level.size; depth++) {
    const next: Docs = new Map();
    for (const [name, ids] of level) {
      const fresh = [...ids].filter((id) => !all.get(name)?.has(id));
      fresh.forEach((id) => add(all, name, id));
      if (!fresh.length || !service.entity(name).document?.lines) continue;
      const src = linesOf(service, service.entity(name));
      const lineIds: number[] = [];
      for (const batch of inBatches(fresh, 1)) lineIds.push(...(await k.selectFrom(src.entity.name).select('id').where(src.parentField, 'in', batch).execute()).map((r) => Number(r.id)));
      const links: Row[] = [];
      for (const batch of inBatches(lineIds, 1)) links.push(...await k.selectFrom('document_link').select(['target_entity', 'target_line_id']).where('source_entity', '=', name).where('source_line_id', 'in', batch).execute());
      await headersOf(k, service, links.map((l) => ({ entity: String(l.target_entity), lineId: Number(l.target_line_id) })), next);
    }
    level = next;
  }
  return all;
}

/**
 * The credit balance (satang) of an account role in the posted entries of the documents of a document's sale
 * (journal-spec-types.ts `saleBalance`): the customer deposits a sale's receipts took before it was invoiced, less
 * what its invoices cleared of them. The document being posted has no entry yet, so it does not count itself.
 */
export async function saleBalance(k: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, accountId: number): Promise<number> {
  const docs = await saleDocuments(k, service, entity, doc);
  const head = service.entity(journalOf(service.registry));
  const lines = service.entity(head.fields.items!.entity!);
  const parent = lines.parent!.field;
  let total = 0;
  for (const [name, ids] of docs) {
    for (const batch of inBatches([...ids], 1)) {
      const row = await k.selectFrom(`${lines.name} as l`).innerJoin(`${head.name} as e`, 'e.id', `l.${parent}`)
        .select((eb) => [eb.fn.sum<number>('l.credit').as('cr'), eb.fn.sum<number>('l.debit').as('dr')])
        .where('e.status', '=', POSTED).where('e.source_entity', '=', name).where('e.source_id', 'in', batch).where('l.account_id', '=', accountId).executeTakeFirst();
      total += Number(row?.cr ?? 0) - Number(row?.dr ?? 0);
    }
  }
  return total;
}

/** Each role a `saleBalance` amount clears, with the role the same amount goes to on the other side (customer_deposits → receivable). */
function clearedRoles(service: EntityService): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of service.registry.all()) {
    for (const v of e.document?.journal?.variants ?? []) {
      for (const l of v.lines) {
        const a = l.debit ?? l.credit;
        if (!a || typeof a !== 'object' || !('saleBalance' in a) || typeof l.role !== 'string' || l.role === a.saleBalance) continue;
        out.set(a.saleBalance, l.role);
      }
    }
  }
  return out;
}

const mentions = (entity: EntitySchema, role: string) => (entity.document?.journal?.variants ?? []).some((v) => v.lines.some((l) => {
  const a = l.debit ?? l.credit;
  return (typeof l.role === 'string' ? l.role === role : Object.values(l.role.roles).includes(role)) || (typeof a === 'object' && 'saleBalance' in a && a.saleBalance === role);
}));

/** Per document of the sale ("entity/id"): the credit balance (satang) of an account in its posted entries, and the company and journal of its first one. */
async function balancesOf(k: Kysely<any>, service: EntityService, docs: Docs, accountId: number): Promise<Map<string, { entity: string; id: number; balance: number; companyId: number; journal: string; no: string | null }>> {
  const head = service.entity(journalOf(service.registry));
  const lines = service.entity(head.fields.items!.entity!);
  const parent = lines.parent!.field;
  const out = new Map<string, { entity: string; id: number; balance: number; companyId: number; journal: string; no: string | null }>();
  for (const [name, ids] of docs) {
    for (const batch of inBatches([...ids], 1)) {
      for (const e of await k.selectFrom(head.name).select(['source_id', 'your_company_id', 'journal', 'source_doc_no']).where('status', '=', POSTED).where('source_entity', '=', name).where('source_id', 'in', batch).orderBy('id').execute()) {
        const key = `${name}/${Number(e.source_id)}`;
        if (!out.has(key)) out.set(key, { entity: name, id: Number(e.source_id), balance: 0, companyId: Number(e.your_company_id), journal: String(e.journal), no: (e.source_doc_no as string | null) ?? null });
      }
      for (const r of await k.selectFrom(`${lines.name} as l`).innerJoin(`${head.name} as e`, 'e.id', `l.${parent}`)
        .select(['e.source_id', (eb) => eb.fn.sum<number>('l.credit').as('cr'), (eb) => eb.fn.sum<number>('l.debit').as('dr')])
        .where('e.status', '=', POSTED).where('e.source_entity', '=', name).where('e.source_id', 'in', batch).where('l.account_id', '=', accountId).groupBy('e.source_id').execute()) {
        const d = out.get(`${name}/${Number(r.source_id)}`);
        if (d) d.balance += Number(r.cr ?? 0) - Number(r.dr ?? 0);
      }
    }
  }
  return out;
}

/**
 * A document of a sale is being cancelled (its entries are about to be reversed): when the sale's deposits would
 * then be in debit (a deposit receipt cancelled after an invoice cleared its deposit), each invoice that cleared
 * what is no longer there gets an entry undoing that much of its clearing, dated the cancel date: Dr receivable
 * (the customer owes it again) / Cr customer_deposits. It is the invoice's own entry, so cancelling the invoice
 * afterwards reverses it with the rest. Answers how many entries it wrote.
 */
export async function unclearDeposits(k: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, date: string, memo: string): Promise<number> {
  const partyField = entity.document?.journal?.party;
  const customerId = partyField && partyOf(service, entity.fields[partyField]?.entity, 1).customerId !== null && !isEmpty(doc[partyField]) ? Number(doc[partyField]) : null;
  let written = 0;
  for (const [held, counter] of clearedRoles(service)) {
    if (!mentions(entity, held)) continue;
    const roles = await roleAccounts(k, service);
    const docs = await saleDocuments(k, service, entity, doc);
    add(docs, entity.name, Number(doc.id));
    const all = await balancesOf(k, service, docs, accountOfRole(roles, held));
    // once reversed, the cancelled document holds nothing: what the others hold is what is left
    all.delete(`${entity.name}/${Number(doc.id)}`);
    let short = -[...all.values()].reduce((s, d) => s + d.balance, 0);
    for (const d of [...all.values()].filter((x) => x.balance < 0).reverse()) {
      if (short <= 0) break;
      const amount = Math.min(short, -d.balance);
      short -= amount;
      await writeEntry(k, service, {
        companyId: d.companyId, date, journal: d.journal, sourceEntity: d.entity, sourceId: d.id, sourceDocNo: d.no, memo: `${UNCLEARED}: ${memo}`,
        lines: [{ accountId: accountOfRole(roles, counter), debit: amount, credit: 0, customerId, description: UNCLEARED }, { accountId: accountOfRole(roles, held), debit: 0, credit: amount, customerId, description: UNCLEARED }],
      });
      written++;
    }
  }
  return written;
}

const UNCLEARED = 'คืนยอดเงินรับล่วงหน้าที่หักไว้';
