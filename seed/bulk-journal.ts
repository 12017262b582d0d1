import type { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import type { Database } from '../server/db/dialect-adapter.ts';
import { columnDefs, toDb } from '../server/db/field-codec.ts';
import { analyzeTables, continueIdsAfterBulk } from '../server/db/bulk-rows.ts';
import { EntityService } from '../server/crud/entity-service.ts';
import { systemContext } from '../server/crud/access-policy.ts';
import { ensureChartOfAccounts } from '../server/ledger/chart-seed.ts';
import { journalOf, POSTED } from '../server/ledger/journal-writer.ts';
import { entryCopy } from '../server/ledger/entry-copy.ts';
import { ACCOUNT_DAY, ensureJournalDays, journalTables, PARTY_DAY, rebuildJournalDays } from '../server/ledger/journal-days.ts';

/**
 * Posted journal entries for the ledger reports' benchmark (issue 50 §4: every report's first page under 1 s with
 * 1,000,000 journal lines): `lines` journal_entry_item rows in balanced entries of 2 or 3 lines over the same two
 * years as the stock ledger, on the accounts of the seeded chart by role: credit sales with VAT, receipts, purchases
 * with VAT, payments and cash expenses, each receivable or payable line naming one of 50 customers or suppliers.
 * Entries and lines bypass posting for speed; every value goes through toDb, as bulk-seed.ts does for the stock
 * ledger. Deterministic for a given size. Ids are given here (an entry's lines need its id) and PostgreSQL's
 * identity is moved past them afterwards.
 */

type Row = Record<string, unknown>;
type Log = (msg: string) => void;
const END_MS = Date.UTC(2026, 0, 1);
const SPAN_DAYS = 730;
const PARTIES = 50;

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The benchmark's parties, created through the service when missing (validated as anything a user types). */
async function parties(service: EntityService, entity: 'customer' | 'supplier'): Promise<number[]> {
  const codes = Array.from({ length: PARTIES }, (_, i) => `BENCH-${entity === 'customer' ? 'C' : 'S'}${String(i + 1).padStart(3, '0')}`);
  const found = new Map((await service.db.kysely.selectFrom(entity).select(['id', 'code']).where('code', 'in', codes).execute()).map((r) => [String(r.code), Number(r.id)]));
  const ids: number[] = [];
  for (const code of codes) {
    let id = found.get(code);
    if (id === undefined) {
      const body = entity === 'customer' ? { code, customer_type: 'individual', name_th: `ลูกค้าทดสอบ ${code}` } : { code, supplier_type: 'individual', name_th: `ผู้ขายทดสอบ ${code}` };
      id = Number((await service.create(entity, body, systemContext)).id);
    }
    ids.push(id);
  }
  return ids;
}

/** A Thai tax id: 12 digits and the check digit the service verifies. */
function withCheckDigit(d12: string): string {
  const sum = [...d12].reduce((s, d, i) => s + Number(d) * (13 - i), 0);
  return d12 + String((11 - (sum % 11)) % 10);
}

async function company(service: EntityService): Promise<number> {
  const first = await service.db.kysely.selectFrom('your_company').select('id').orderBy('id').limit(1).executeTakeFirst();
  if (first) return Number(first.id);
  const row = await service.create('your_company', { code: 'BENCH', name_th: 'บริษัท ทดสอบประสิทธิภาพ จำกัด', tax_id: withCheckDigit('010555800001'), branch_code: '00000', is_vat_registered: true }, systemContext);
  return Number(row.id);
}

export async function bulkJournal(db: Database, registry: SchemaRegistry, opts: { lines: number; log?: Log }): Promise<{ entries: number; lines: number }> {
  const log = opts.log ?? (() => undefined);
  const entryEntity = registry.fileSchema('journal_entry');
  const lineEntity = registry.fileSchema('journal_entry_item');
  if (!entryEntity || !lineEntity) throw new Error('There is no journal_entry schema to seed');
  const service = new EntityService(db, registry);
  await ensureChartOfAccounts(service);
  const roles = new Map((await db.kysely.selectFrom('account').select(['id', 'role']).where('role', 'is not', null).execute()).map((r) => [String(r.role), Number(r.id)]));
  const role = (r: string) => { const id = roles.get(r); if (!id) throw new Error(`the chart has no account with role ${r}`); return id; };
  // booleans are stored per dialect: read is_group and keep the postable accounts here
  const expenses = (await db.kysely.selectFrom('account').select(['id', 'is_group']).where('account_type', '=', 'expense').where('role', 'is', null).execute())
    .filter((r) => !r.is_group).map((r) => Number(r.id));
  const [customers, suppliers, companyId] = [await parties(service, 'customer'), await parties(service, 'supplier'), await company(service)];
  const rand = rng(20260501);
  const entryDefs = columnDefs(entryEntity);
  const lineDefs = columnDefs(lineEntity);
  const encode = (defs: typeof entryDefs, r: Row): Row => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toDb(defs.get(k)!, v)]));
  const maxId = async (t: string) => Number((await db.kysely.selectFrom(t).select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
  let entryId = await maxId('journal_entry');
  let lineId = await maxId('journal_entry_item');
  const t0 = performance.now();
  let written = 0;
  const stamp = (date: string) => ({ created_at: `${date}T03:00:00.000Z`, updated_at: `${date}T03:00:00.000Z`, created_by: null, updated_by: null });
  let entries = 0;
  const batch = { e: [] as Row[], l: [] as Row[] };
  const flush = async () => {
    // a few hundred rows a statement keeps under SQLite's and PostgreSQL's bound-parameter limits
    for (let i = 0; i < batch.e.length; i += 500) await db.kysely.insertInto('journal_entry').values(batch.e.slice(i, i + 500)).execute();
    for (let i = 0; i < batch.l.length; i += 500) await db.kysely.insertInto('journal_entry_item').values(batch.l.slice(i, i + 500)).execute();
    batch.e = []; batch.l = [];
  };
  while (written < opts.lines) {
    const day = Math.floor((written / opts.lines) * SPAN_DAYS);
    const date = new Date(END_MS - (SPAN_DAYS - day) * 86_400_000).toISOString().slice(0, 10);
    const net = 100 + Math.floor(rand() * 5_000_000) / 100;
    const vat = Math.round(net * 7) / 100;
    const gross = Math.round((net + vat) * 100) / 100;
    const customer = customers[Math.floor(rand() * PARTIES)]!;
    const supplier = suppliers[Math.floor(rand() * PARTIES)]!;
    const kind = rand();
    const [journal, lines]: [string, Row[]] =
      kind < 0.4 ? ['sales', [{ account_id: role('receivable'), debit: gross, credit: 0, customer_id: customer }, { account_id: role('sales'), debit: 0, credit: net }, { account_id: role('output_vat'), debit: 0, credit: vat }]]
        : kind < 0.65 ? ['receipts', [{ account_id: role('bank'), debit: gross, credit: 0 }, { account_id: role('receivable'), debit: 0, credit: gross, customer_id: customer }]]
          : kind < 0.85 ? ['purchases', [{ account_id: role('inventory'), debit: net, credit: 0 }, { account_id: role('input_vat'), debit: vat, credit: 0 }, { account_id: role('payable'), debit: 0, credit: gross, supplier_id: supplier }]]
            : kind < 0.95 ? ['payments', [{ account_id: role('payable'), debit: gross, credit: 0, supplier_id: supplier }, { account_id: role('bank'), debit: 0, credit: gross }]]
              : ['general', [{ account_id: expenses[Math.floor(rand() * expenses.length)] ?? role('cogs'), debit: net, credit: 0 }, { account_id: role('cash'), debit: 0, credit: net }]];
    entryId += 1;
    entries += 1;
    const total = lines.reduce((s, l) => s + Math.round(Number(l.debit) * 100), 0) / 100;
    batch.e.push(encode(entryDefs, { id: entryId, doc_no: `BENCH-JV-${entryId}`, doc_date: date, your_company_id: companyId, journal, status: 'posted', memo: null, total_debit: total, total_credit: total, ...stamp(date) }));
    // each line carries its entry's date and company, as the journal writer writes them (server/ledger/entry-copy.ts)
    const copy = entryCopy(lineEntity, { doc_date: date, your_company_id: companyId });
    lines.forEach((l, i) => batch.l.push(encode(lineDefs, { id: ++lineId, journal_entry_id: entryId, line_no: i + 1, description: null, customer_id: null, supplier_id: null, ...copy, ...stamp(date), ...l })));
    written += lines.length;
    if (batch.l.length >= 20_000) {
      await flush();
      if (opts.lines >= 50_000) log(`  ${written.toLocaleString('en-US')} / ${opts.lines.toLocaleString('en-US')} journal lines, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
  await flush();
  // the lines bypassed the journal writer: the day summaries the reports read are made again from all of them
  const tables = journalTables(registry, journalOf(registry), POSTED)!;
  await ensureJournalDays(db, null);
  const tDays = performance.now();
  await db.kysely.transaction().execute((trx) => rebuildJournalDays(trx, tables));
  log(`journal day summaries rebuilt in ${((performance.now() - tDays) / 1000).toFixed(1)} s`);
  await continueIdsAfterBulk(db, ['journal_entry', 'journal_entry_item']);
  await analyzeTables(db, ['journal_entry', 'journal_entry_item', ACCOUNT_DAY, PARTY_DAY]);
  log(`${entries.toLocaleString('en-US')} journal entries, ${written.toLocaleString('en-US')} lines in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { entries, lines: written };
}
