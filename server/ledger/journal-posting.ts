import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { JournalAmount, JournalLineSpec, JournalSpec, JournalVariant } from '../../engine/schema/journal-spec-types.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { isEmpty } from '../crud/record-values.ts';
import { scaleOf } from '../db/field-codec.ts';
import { saleBalance, unclearDeposits } from './sale-balance.ts';
import { sourceOf } from '../documents/document-posting.ts';
import { saleTaxInvoice } from '../documents/tax-invoice-supply.ts';
import { movedInTransaction, rideWithMovements, REVERSAL_NOTE } from '../stock/moved-values.ts';
import { writesRideOneStatement } from '../db/riding-statements.ts';
import { accountOfRole, balanced, entryRider, partyOf, prepareEntry, reverseEntriesOf, roleAccounts, writeEntry, type EntryInput, type EntryLine, type EntryOptions, type EntryPrepared } from './journal-writer.ts';

type Row = Record<string, unknown>;

/** Documents that post to the books: those whose schema declares `document.journal`, while the chart exists. */
export function postsToBooks(service: EntityService, entity: EntitySchema): boolean {
  return Boolean(entity.document?.journal && entity.workflow && service.registry.holder('chartOfAccounts') && service.registry.holder('journalEntries'));
}

/** The stock ledger (`"holds": "stockMovements"`): only asked for by a document whose entry takes stock values. */
const stockLedgerOf = (service: EntityService) => service.registry.held('stockMovements');

const satang = (v: unknown) => (isEmpty(v) ? 0 : Math.round(Number(v) * 100));

/** Does the variant's condition hold for this document? */
async function holds(trx: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, v: JournalVariant): Promise<boolean> {
  for (const [f, values] of Object.entries(v.when ?? {})) if (!values.includes(String(doc[f] ?? ''))) return false;
  if (v.fromSource) {
    const field = entity.document!.lines;
    const linesEntity = field ? service.entity(entity.fields[field]!.entity!) : undefined;
    const lines = (field ? doc[field] as Row[] | undefined : undefined) ?? [];
    if (!linesEntity || !lines.some((l) => !isEmpty(l.source_line_id) && sourceOf(entity, linesEntity, l)?.source === v.fromSource)) return false;
  }
  if (v.betweenCompanies) {
    const [from, to] = [await companyOf(trx, entity, doc), await companyAt(trx, entity, doc, entity.document!.journal!.toCompany)];
    if (from === null || to === null || from === to) return false;
  }
  if (v.saleInvoiced !== undefined) {
    const invoiced = (await saleTaxInvoice(trx, service, entity, doc)) !== null;
    if (invoiced !== v.saleInvoiced) return false;
  }
  return true;
}

/** The first variant whose conditions hold (one without conditions is the fallback). */
export async function variantOf(trx: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row): Promise<JournalVariant | null> {
  for (const v of entity.document!.journal!.variants) if (await holds(trx, service, entity, doc, v)) return v;
  return null;
}

/** Σ `value` (satang) of the document's own stock movements in a direction, reversals left out. */
async function stockValue(trx: Kysely<any>, service: EntityService, entity: EntitySchema, id: number, direction: 'in' | 'out'): Promise<number> {
  const row = await trx.selectFrom(stockLedgerOf(service)).select((eb) => eb.fn.sum<number>('value').as('v'))
    .where('doc_entity', '=', entity.name).where('doc_id', '=', id).where('direction', '=', direction)
    .where((eb) => eb.or([eb('note', 'is', null), eb('note', '!=', REVERSAL_NOTE)])).executeTakeFirst();
  return Number(row?.v ?? 0);
}

/** The role of a line by a field path ("payment_type", "payment_method_id.payment_type") of a row. */
function roleBy(spec: JournalLineSpec, row: Row): string {
  if (typeof spec.role === 'string') return spec.role;
  const value = String(row[spec.role.field] ?? '');
  return spec.role.roles[value] ?? spec.role.roles['*'] ?? Object.values(spec.role.roles)[0]!;
}

/**
 * The value a source stock document's lines booked for what the document's lines take from them (satang): each
 * source line's stock movements' value, in proportion to the quantity taken (journal-spec-types.ts `sourceValue`).
 */
async function sourceValue(trx: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, source: string): Promise<number> {
  const field = entity.document!.lines;
  if (!field) return 0;
  const linesEntity = service.entity(entity.fields[field]!.entity!);
  const taken = ((doc[field] as Row[] | undefined) ?? []).filter((l) => !isEmpty(l.source_line_id) && sourceOf(entity, linesEntity, l)?.source === source);
  if (!taken.length) return 0;
  const rows = await trx.selectFrom(stockLedgerOf(service)).select(['doc_line_id', (eb) => eb.fn.sum<number>('value').as('v'), (eb) => eb.fn.sum<number>('qty').as('q')])
    .where('doc_entity', '=', source).where('doc_line_id', 'in', [...new Set(taken.map((l) => Number(l.source_line_id)))]).where('direction', '=', 'in')
    .where((eb) => eb.or([eb('note', 'is', null), eb('note', '!=', REVERSAL_NOTE)])).groupBy('doc_line_id').execute();
  const booked = new Map(rows.map((r) => [Number(r.doc_line_id), { value: Number(r.v), qty: Number(r.q) }]));
  // the ledger's quantities are stored scaled (decimal with its scale), the document's line as read is a number
  const scale = 10 ** scaleOf(service.entity(stockLedgerOf(service)).fields.qty!);
  let total = 0;
  for (const l of taken) {
    const b = booked.get(Number(l.source_line_id));
    if (!b || !b.qty) continue;
    const qty = Math.round(Number(l.qty) * scale);
    total += qty === b.qty ? b.value : Math.round((b.value * qty) / b.qty);
  }
  return total;
}

/**
 * An amount the stock ledger decides as it writes (journal-spec `stock`): the value of the document's own movements
 * of a direction, known only once the stock statements ran (an out is valued at the average cost of the moment).
 */
interface StockShare { stock: 'in' | 'out' }
type Amount = number | StockShare;

/** The amounts of one line spec, per role (a lines amount may split over several roles); stock values left to the write. */
async function amountsOf(trx: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, spec: JournalLineSpec, a: JournalAmount, roles: Map<string, number>): Promise<Array<[string, Amount]>> {
  if (typeof a === 'string') return [[roleBy(spec, doc), satang(doc[a])]];
  if ('stock' in a) return [[roleBy(spec, doc), { stock: a.stock }]];
  if ('sourceValue' in a) return [[roleBy(spec, doc), await sourceValue(trx, service, entity, doc, a.sourceValue)]];
  if ('saleBalance' in a) {
    const held = await saleBalance(trx, service, entity, doc, accountOfRole(roles, a.saleBalance));
    return [[roleBy(spec, doc), Math.max(0, Math.min(held, satang(doc[a.upTo])))]];
  }
  const out = new Map<string, number>();
  for (const line of (doc[a.lines] as Row[] | undefined) ?? []) {
    const role = roleBy(spec, line);
    out.set(role, (out.get(role) ?? 0) + satang(line[a.amount]));
  }
  return [...out];
}

/** One line of an entry as planned: its amount may still be a stock value. */
interface PlannedLine { role: string; amount: Amount; debit: boolean; customerId: number | null; supplierId: number | null; toCompany: boolean }

/**
 * A posted document's entry as worked out before the stock statements of its posting lock their balance rows:
 * everything but the values those statements move. The posting's transaction holds the hot balance rows from
 * its first stock statement to its commit, and other postings of the same products queue for them (issue 49:
 * PostgreSQL postings' p99 at saturation), so only the entry's writes are left for after them (writePlanned).
 */
export interface EntryPlan {
  entity: EntitySchema;
  id: number;
  companyId: number;
  /** The company of `journal.toCompany` when a line goes to its books, else null. */
  toCompanyId: number | null;
  date: string;
  no: string;
  roles: Map<string, number>;
  lines: PlannedLine[];
  /** Per company: its closed period's refusal (thrown only if an entry of that company is then written) and number tokens. */
  prepared: Map<number, EntryPrepared>;
  history: boolean;
}

/**
 * The plan of a posted document's entry (the document with its lines as the posting has it), or null when it
 * posts to no company's books or none of its variants applies.
 */
export async function planEntry(trx: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, opts: { history?: boolean } = {}): Promise<EntryPlan | null> {
  const companyId = await companyOf(trx, entity, doc);
  if (companyId === null) return null;
  const j = entity.document!.journal! as JournalSpec;
  const variant = await variantOf(trx, service, entity, doc);
  if (!variant) return null;
  const roles = await roleAccounts(trx, service);
  const partyKind = j.party ? entity.fields[j.party]?.entity : undefined;
  const lines: PlannedLine[] = [];
  for (const spec of variant.lines) {
    const party = spec.party && j.party && !isEmpty(doc[j.party]) ? Number(doc[j.party]) : null;
    for (const [role, amount] of await amountsOf(trx, service, entity, doc, spec, (spec.debit ?? spec.credit)!, roles)) {
      lines.push({ role, amount, debit: spec.debit !== undefined, ...partyOf(service, partyKind, party), toCompany: Boolean(spec.toCompany) });
    }
  }
  const toCompanyId = lines.some((l) => l.toCompany) ? await companyAt(trx, entity, doc, j.toCompany) : null;
  const dateField = entity.document!.date;
  const date = String((dateField && doc[dateField]) || today()).slice(0, 10);
  const prepared = new Map<number, EntryPrepared>();
  for (const company of [companyId, toCompanyId]) if (company !== null && !prepared.has(company)) prepared.set(company, await prepareEntry(trx, service, company, date, opts));
  return { entity, id: Number(doc.id), companyId, toCompanyId, date, no: numberOf(entity, doc), roles, lines, prepared, history: Boolean(opts.history) };
}

/** The value of the document's own stock movements of a direction: what this transaction's stock statements noted, else the ledger's rows. */
async function stockShare(trx: Kysely<any>, service: EntityService, entity: EntitySchema, id: number, direction: 'in' | 'out'): Promise<number> {
  const moved = movedInTransaction(trx, entity.name, id);
  return moved ? moved[direction] : stockValue(trx, service, entity, id, direction);
}

/** A planned entry's entries to write (its own company's and `toCompany`'s), its stock values as the stock statements stored them; none whose amounts are all zero. */
async function plannedEntries(trx: Kysely<any>, service: EntityService, plan: EntryPlan): Promise<{ input: EntryInput; opts: EntryOptions }[]> {
  const { entity, roles } = plan;
  const lines: EntryLine[] = [];
  const toLines: EntryLine[] = [];
  for (const l of plan.lines) {
    const amount = typeof l.amount === 'number' ? l.amount : await stockShare(trx, service, entity, plan.id, l.amount.stock);
    if (amount === 0) continue;
    (l.toCompany ? toLines : lines).push({
      accountId: accountOfRole(roles, l.role), debit: l.debit ? amount : 0, credit: l.debit ? 0 : amount, customerId: l.customerId, supplierId: l.supplierId,
    });
  }
  const entry = (company: number, entryLines: EntryLine[]) => ({
    input: {
      companyId: company, date: plan.date, journal: entity.document!.journal!.journal,
      sourceEntity: entity.name, sourceId: plan.id, sourceDocNo: plan.no, // the memo is what an accountant reads in the journal: Thai, the document's label and number (the variant's name is an identifier)
      memo: `${entity.label.th} ${plan.no}`, lines: entryLines,
    },
    opts: { history: plan.history, prepared: plan.prepared.get(company) },
  });
  const own = balanced(lines, roles);
  const to = balanced(toLines, roles);
  const out: { input: EntryInput; opts: EntryOptions }[] = [];
  if (own.length) out.push(entry(plan.companyId, own));
  if (to.length && plan.toCompanyId !== null) out.push(entry(plan.toCompanyId, to));
  // in company order, whichever company sends: each entry locks its company's counter for the month, and two postings
  // taking two companies' counters in opposite orders (a transfer each way) would deadlock
  return out.sort((a, b) => a.input.companyId - b.input.companyId);
}

/** Writes a planned entry, its stock values as the stock statements just stored them (nothing when its amounts are all zero). */
export async function writePlanned(trx: Kysely<any>, service: EntityService, plan: EntryPlan): Promise<void> {
  for (const e of await plannedEntries(trx, service, plan)) await writeEntry(trx, service, e.input, e.opts);
}

/**
 * PostgreSQL: offers the planned entry to the statement in which the stock ledger writes the document's movements
 * and adds to its balances (moved-values.ts `rideWithMovements`), so the entry adds no round trip to the time the
 * posting holds the balance rows, its journal counter and its day rows, which other postings queue for (issue 49).
 * Answers the step for the transaction's end: nothing left when the entry rode, else the entry written then (a
 * posting whose movements change no balance, or one with too many lines to ride).
 */
function rideWithStock(trx: Kysely<any>, service: EntityService, plan: EntryPlan): () => Promise<void> {
  let rode = false;
  let withdrawn = false;
  // the entries as riders, once the stock ledger asked for them; null when one of them cannot ride
  let made: NonNullable<Awaited<ReturnType<typeof entryRider>>>[] | null = null;
  rideWithMovements(trx, plan.entity.name, plan.id, {
    make: async () => {
      if (withdrawn) return [];
      const riders = [];
      for (const [i, e] of (await plannedEntries(trx, service, plan)).entries()) riders.push(await entryRider(trx, service, e.input, e.opts, `j${plan.id}_${i}_`));
      made = riders.every((r) => r !== null) ? riders as NonNullable<(typeof riders)[number]>[] : null;
      return made?.map((r) => r.rider) ?? [];
    },
    rode: async (reads) => {
      if (made === null) return;
      for (const r of made) await r.rode(reads);
      rode = true;
    },
  });
  return async () => {
    if (rode) return;
    withdrawn = true;
    await writePlanned(trx, service, plan);
  };
}

const today = () => businessToday(businessClock.now(), businessClock.timeZone);

/** The document's number for the entry's memo and `source_doc_no`. */
export const numberOf = (entity: EntitySchema, doc: Row) => (isEmpty(doc[entity.titleField]) ? `#${doc.id}` : String(doc[entity.titleField]));

/** The company whose books get the entry: `journal.company` through its link, else the document's company field. */
export async function companyOf(trx: Kysely<any>, entity: EntitySchema, doc: Row): Promise<number | null> {
  const linked = await companyAt(trx, entity, doc, entity.document!.journal!.company);
  if (linked !== null) return linked;
  const own = doc[entity.access?.companyField ?? 'your_company_id'];
  return isEmpty(own) ? null : Number(own);
}

/**
 * The companies read per transaction and document object: planning an entry asks for the same one up to three
 * times (the entry's company, a variant's `betweenCompanies`, `toCompany`), each a round trip on PostgreSQL.
 */
const companiesRead = new WeakMap<object, WeakMap<Row, Map<string, number | null>>>();

/** The company a `link.field` path of the document names, or null. */
async function companyAt(trx: Kysely<any>, entity: EntitySchema, doc: Row, path: string | undefined): Promise<number | null> {
  if (path) {
    const [link, field] = path.split('.') as [string, string];
    const target = entity.fields[link]?.entity;
    if (target && !isEmpty(doc[link])) {
      let ofTrx = companiesRead.get(trx);
      if (!ofTrx) companiesRead.set(trx, (ofTrx = new WeakMap()));
      let ofDoc = ofTrx.get(doc);
      if (!ofDoc) ofTrx.set(doc, (ofDoc = new Map()));
      // the link's value is in the key: a document object changed since gets its new company
      const key = `${path}=${String(doc[link])}`;
      if (ofDoc.has(key)) return ofDoc.get(key)!;
      const row = await trx.selectFrom(target).select(field).where('id', '=', Number(doc[link])).executeTakeFirst();
      const company = row && !isEmpty(row[field]) ? Number(row[field]) : null;
      ofDoc.set(key, company);
      return company;
    }
  }
  return null;
}

/** Writes the entry of a posted document read as stored (nothing when its amounts are all zero); answers whether it posts to the books. */
export async function postDocument(trx: Kysely<any>, service: EntityService, entity: EntitySchema, id: number, opts: { history?: boolean } = {}): Promise<boolean> {
  const plan = await planEntry(trx, service, entity, await service.readWhole(trx, entity.name, id), opts);
  if (!plan) return false;
  await writePlanned(trx, service, plan);
  return true;
}

/**
 * Schema key `document.journal` on the server: the post action writes the document's entry, the cancel action
 * its reversing entry dated the cancel date, each in the action's transaction and after its stock movements
 * (written as the transaction's last step, whose values a delivery's cost of goods sold takes). The entry is
 * planned when the action runs, from the document as the action has it, before any stock statement; only its
 * writes are left for the end.
 */
export function installJournalPosting(service: EntityService): void {
  service.onAction(async (trx, e) => {
    const d = e.entity.document!;
    if (e.action === (d.postAction ?? 'approve')) {
      // a listener before this one that wrote the record says so (it may not have told the event's copy all it wrote)
      const doc = e.recordWritten ? await service.readWhole(trx, e.entity.name, e.id) : e.after;
      const plan = await planEntry(trx, service, e.entity, doc);
      if (plan) {
        const last = writesRideOneStatement(trx) ? rideWithStock(trx, service, plan) : () => writePlanned(trx, service, plan);
        await service.beforeCommit(trx, last);
      }
    } else if (e.action === (d.cancelAction ?? 'cancel') && e.from !== e.entity.workflow!.initial) {
      await service.beforeCommit(trx, async () => {
        const extra = await stockDifferences(trx, service, e.entity, e.id, e.after);
        const memo = `ยกเลิก${e.entity.label.th} ${numberOf(e.entity, e.after)}`;
        await unclearDeposits(trx, service, e.entity, await service.readWhole(trx, e.entity.name, e.id), today(), memo);
        await reverseEntriesOf(trx, service, e.entity.name, e.id, today(), memo, extra);
      });
    }
  }, (entity) => postsToBooks(service, entity));
}

const STOCK_REVERSAL = 'ผลต่างมูลค่าสินค้าจากการยกเลิกเอกสาร';

/**
 * A cancelled stock document's reversal movements may move less value than its posting did (a receipt cancelled
 * after part of its stock left at average cost: the stock ledger takes out what is there). The reversing entry
 * then moves `inventory` by what the stock ledger moved, and the difference goes to `stock_adjustment`, so the
 * inventory account stays equal to the stock valuation.
 */
async function stockDifference(trx: Kysely<any>, service: EntityService, entity: EntitySchema, id: number, toCompany: boolean): Promise<EntryLine[]> {
  const dirs = new Set<'in' | 'out'>();
  for (const v of entity.document!.journal!.variants) for (const l of v.lines) { const a = l.debit ?? l.credit; if (a && typeof a === 'object' && 'stock' in a && Boolean(l.toCompany) === toCompany) dirs.add(a.stock); }
  if (!dirs.size) return [];
  const roles = await roleAccounts(trx, service);
  const out: EntryLine[] = [];
  for (const dir of dirs) {
    const posted = await stockValue(trx, service, entity, id, dir);
    const row = await trx.selectFrom(stockLedgerOf(service)).select((eb) => eb.fn.sum<number>('value').as('v'))
      .where('doc_entity', '=', entity.name).where('doc_id', '=', id).where('direction', '=', dir === 'in' ? 'out' : 'in').where('note', '=', REVERSAL_NOTE).executeTakeFirst();
    const d = posted - Number(row?.v ?? 0);
    if (!d) continue;
    // the mirrored entry moves inventory by `posted`; the stock moved back only `posted - d`
    const inventory = accountOfRole(roles, 'inventory');
    const adjustment = accountOfRole(roles, 'stock_adjustment');
    const sign = dir === 'in' ? 1 : -1;
    out.push({ accountId: inventory, debit: sign * d > 0 ? sign * d : 0, credit: sign * d < 0 ? -sign * d : 0, description: STOCK_REVERSAL },
      { accountId: adjustment, debit: sign * d < 0 ? -sign * d : 0, credit: sign * d > 0 ? sign * d : 0, description: STOCK_REVERSAL });
  }
  return out;
}

/** The stock differences of a cancel per company: those of `toCompany` lines go to the receiving company's reversal. */
async function stockDifferences(trx: Kysely<any>, service: EntityService, entity: EntitySchema, id: number, doc: Row): Promise<EntryLine[] | Map<number, EntryLine[]>> {
  const own = await stockDifference(trx, service, entity, id, false);
  const path = entity.document!.journal!.toCompany;
  if (!path) return own;
  const out = new Map<number, EntryLine[]>();
  const [from, to] = [await companyOf(trx, entity, doc), await companyAt(trx, entity, doc, path)];
  if (from !== null) out.set(from, own);
  if (to !== null) out.set(to, [...(out.get(to) ?? []), ...await stockDifference(trx, service, entity, id, true)]);
  return out;
}
