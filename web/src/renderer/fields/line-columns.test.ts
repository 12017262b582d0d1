/**
 * Issue 52 §6, the lines grids a Thai accountant reads: no line shows its source's row id or schema name ("goods_receipt"
 * in a purchase invoice's lines), and the column that sticks to the right edge is the line's amount (จำนวนเงิน), not
 * the rounding carried from a source (ปัดเศษให้ครบยอดต้นทาง), which had pushed the amount off-screen on a tax invoice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { lineColumns, totalColumn } from './line-columns.ts';

const dir = join(import.meta.dirname, '../../../../schemas');
const lines = readdirSync(dir).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as EntitySchema)
  .filter((e) => e.parent);

describe('the columns of a lines grid', () => {
  it('never show a source line\'s id or its source\'s schema name', () => {
    const shown = lines.flatMap((e) => lineColumns(e).filter(([n]) => n === 'source_line_id' || n === 'source_entity').map(([n]) => `${e.name}.${n}`));
    expect(shown).toEqual([]);
  });

  it('keep the line\'s amount at the right edge where a line carries a rounding from its source', () => {
    const rounded = lines.filter((e) => e.fields.rounding_amount && e.fields.amount);
    expect(rounded.map((e) => e.name).sort()).toEqual(expect.arrayContaining(['purchase_invoice_item', 'sales_order_item', 'tax_invoice_item']));
    for (const e of rounded) expect(totalColumn(lineColumns(e)), e.name).toBe('amount');
  });
});
