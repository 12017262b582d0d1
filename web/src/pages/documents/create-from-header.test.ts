// @vitest-environment happy-dom
/** Which header fields the create-from screen offers, and the body it sends (real schema files). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { createFromHeaderFields, headerBody } from './CreateFromHeader.tsx';

const schema = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../../schemas/${name}.json`), 'utf8')) as EntitySchema;

describe('create-from header fields', () => {
  it('offers what a user writes on a new tax invoice, not the number, status, totals or what the order gives', () => {
    const target = schema('tax_invoice');
    const fields = createFromHeaderFields(target, target.document!.from!.find((f) => f.source === 'sales_order'));
    expect(fields).toEqual(expect.arrayContaining(['doc_date', 'due_date', 'customer_reference', 'remark']));
    for (const no of ['doc_no', 'status', 'customer_id', 'your_company_id', 'vat_type', 'subtotal', 'total_amount', 'items', 'amended_from']) expect(fields).not.toContain(no);
  });

  it('sends only filled inputs, numbers as numbers', () => {
    const target = schema('goods_receipt');
    expect(headerBody(target, { doc_date: '2026-11-22', remark: '  ', inventory_id: '3', supplier_reference: 'DN-1' }))
      .toEqual({ doc_date: '2026-11-22', inventory_id: 3, supplier_reference: 'DN-1' });
  });
});
