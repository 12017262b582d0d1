/**
 * Issue 38 §9: quantities read as people write them ("100", "2.5", not
 * "100.0000"), in the web's cells and on the PDF, and a line's product name
 * has room on the PDF (its column shares the free width, instead of being
 * squeezed to its longest word by the number columns).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentDefinition } from '../../server/print/document-pdf.ts';
import { formatQuantity } from '../../server/print/print-format.ts';
import { formatCell } from '../../web/src/renderer/format-value.ts';
import { SCHEMAS_DIR } from '../support/test-app.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';

const schema = (n: string) => JSON.parse(readFileSync(join(SCHEMAS_DIR, `${n}.json`), 'utf8')) as EntitySchema;

describe('quantities and product names', () => {
  const item = schema('quotation_item');

  it('a quantity shows its real decimals, money keeps two', () => {
    expect(formatCell(item.fields.qty, 100, 'th')).toBe('100');
    expect(formatCell(item.fields.qty, '100.0000', 'th')).toBe('100');
    expect(formatCell(item.fields.qty, '2.5000', 'th')).toBe('2.5');
    expect(formatCell(item.fields.qty, 1234.125, 'th')).toBe('1,234.125');
    expect(formatCell(item.fields.price, 100, 'th')).toBe('100.00');
    expect(formatQuantity('100.0000', 4)).toBe('100');
    expect(formatQuantity(2.5, 4)).toBe('2.5');
  });

  it('the PDF lines show the quantity as written and give the product name a share of the width', () => {
    const quotation = schema('quotation');
    const linesField = Object.entries(quotation.fields).find(([, f]) => f.type === 'lines' && f.entity === 'quotation_item')![0];
    const doc = {
      entity: quotation,
      row: { id: 1, [linesField]: [{ product_id: 7, description: '', qty: '2.5000', unit: 'ม้วน', price: '120.00', discount_percent: '0', amount: '300.00' }] },
      lineEntities: { [linesField]: item },
      links: {},
      parties: {},
      lineLinks: { [`${linesField}.product_id`]: new Map([[7, { code: 'P-001', name_th: 'ฟิล์มยืดพันพาเลทชนิดใสพิเศษ' }]]) },
    };
    const def = JSON.stringify(documentDefinition(doc, { lang: 'th' }));
    const table = (documentDefinition(doc, { lang: 'th' }) as { content: Array<{ table?: { widths: string[]; body: unknown[][] } }> }).content.find((b) => b.table)!.table!;
    const cols = item.list!.columns!.filter((c) => c !== 'line_no');
    expect(table.widths[1 + cols.indexOf('product_id')]).toBe('*');
    expect(def).toContain('2.5');
    expect(def).not.toContain('2.50');
  });
});
