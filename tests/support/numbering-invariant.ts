/**
 * Issue 31 §11, "numbers are unique and gap-free per series", as one check any
 * property test can run after each step. It reads every entity whose numbers
 * are drawn on posting (tax invoices, credit and debit notes, receipts,
 * withholding certificates) straight from the database and asserts:
 *
 * - a draft (the workflow's initial state) has no number; anything posted has one;
 * - per series (the number without its running part: company code, prefix and
 *   period), the running numbers are exactly 1..n, none twice;
 * - with a `dateField`: the number's period is its date's, and, with the issue-date rule
 *   (`dateRule: "issue"`), within a series a later number never has an earlier date.
 */
import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';

type Row = Record<string, unknown>;

export async function expectNumberSeriesSound(db: Kysely<any>, registry: SchemaRegistry): Promise<void> {
  for (const entity of registry.all()) {
    const n = entity.numbering;
    if (n?.assignOn !== 'post' || !entity.workflow) continue;
    const status = entity.workflow.field;
    const cols = ['id', n.field, status, ...(n.dateField ? [n.dateField] : [])];
    const rows: Row[] = await db.selectFrom(entity.name).select(cols).execute();
    const series = new Map<string, { seq: number; date: string | null; no: string }[]>();
    for (const r of rows) {
      const no = r[n.field] === null || r[n.field] === undefined ? null : String(r[n.field]);
      const draft = r[status] === entity.workflow.initial;
      expect(no === null, `${entity.name} ${r.id} (${String(r[status])}) numbered ${no}`).toBe(draft);
      if (no === null) continue;
      const m = /^(.*?)(\d+)$/.exec(no);
      expect(m, `${entity.name} ${no} ends in its running number`).not.toBeNull();
      const date = n.dateField ? String(r[n.dateField]) : null;
      if (date) expect(no, `${entity.name} ${no} is numbered in its date's month (${date})`).toContain(date.slice(0, 7).replace('-', ''));
      const list = series.get(m![1]!) ?? [];
      list.push({ seq: Number(m![2]), date, no });
      series.set(m![1]!, list);
    }
    for (const [key, list] of series) {
      list.sort((a, b) => a.seq - b.seq);
      expect(list.map((x) => x.seq), `${entity.name} series ${key}`).toEqual(list.map((_, i) => i + 1));
      for (let i = 1; i < list.length; i++) {
        // date order is the Revenue Code's rule for tax documents (numbering.dateRule "issue"); a journal voucher's series
        // (issue 50) follows the order entries are written in, dated by their documents
        if (list[i]!.date !== null && n.dateRule === 'issue') expect(list[i]!.date! >= list[i - 1]!.date!, `${list[i]!.no} (${list[i]!.date}) after ${list[i - 1]!.no} (${list[i - 1]!.date})`).toBe(true);
      }
    }
  }
}
