/**
 * Issue 38 §3 in the form: which changes ask the server for fills (declared in the
 * schema: fillFrom, fillFrom.priceList, dateFrom), and how an answer lands in the
 * form (a typed value is kept, an earlier fill is replaced).
 */
import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { applyFillAnswer, fillTriggers, isFillTrigger } from './form-fills.ts';

const L = { th: 'x', en: 'x' };
const line: EntitySchema = {
  name: 'so_item', label: L, kind: 'lines', titleField: 'product_id', parent: { entity: 'so', field: 'so_id' },
  fields: {
    product_id: { type: 'link', entity: 'product', label: L },
    qty: { type: 'decimal', scale: 4, label: L },
    unit: { type: 'string', label: L, fillFrom: { link: 'product_id', field: 'unit' } },
    price: { type: 'money', label: L, fillFrom: { link: 'product_id', field: 'price', priceList: 'customer_id.price_list_id' } },
  },
};
const so: EntitySchema = {
  name: 'so', label: L, kind: 'document', titleField: 'doc_no',
  fields: {
    doc_no: { type: 'string', label: L },
    doc_date: { type: 'date', label: L },
    customer_id: { type: 'link', entity: 'customer', label: L },
    contact_name: { type: 'string', label: L, fillFrom: { link: 'customer_id', field: 'contact_name' } },
    credit_term_days: { type: 'integer', label: L, fillFrom: { link: 'customer_id', field: 'credit_term_days' } },
    due_date: { type: 'date', label: L, dateFrom: { date: 'doc_date', days: 'credit_term_days' } },
    remark: { type: 'text', label: L },
    items: { type: 'lines', entity: 'so_item', label: L },
  },
};
const resolve = (n: string) => (n === 'so' ? so : n === 'so_item' ? line : undefined);

describe('form fills', () => {
  it('a customer, the date, the credit term, and a line\'s product or quantity ask for fills; nothing else does', () => {
    const t = fillTriggers(so, resolve);
    for (const yes of ['customer_id', 'doc_date', 'credit_term_days', 'items.0.product_id', 'items.12.qty']) expect(isFillTrigger(t, yes), yes).toBe(true);
    for (const no of ['remark', 'contact_name', 'due_date', 'items.0.unit', 'items.0.price', 'items.x.product_id', 'items.0']) expect(isFillTrigger(t, no), no).toBe(false);
  });

  it('a fill lands in an empty field or over the previous fill, never over what was typed', () => {
    const values: Record<string, unknown> = { contact_name: '', 'items.0.price': 999, 'items.0.unit': 'ม้วน', due_date: '' };
    const last: Record<string, unknown> = { 'items.0.unit': 'ม้วน' };
    const set = (p: string, v: unknown) => { values[p] = v; };
    const done = applyFillAnswer({ contact_name: 'คุณวิภา', 'items.0.price': 320, 'items.0.unit': 'กล่อง', due_date: '2026-12-17' }, (p) => values[p], set, last);
    expect(done.sort()).toEqual(['contact_name', 'due_date', 'items.0.unit']);
    expect(values).toEqual({ contact_name: 'คุณวิภา', 'items.0.price': 999, 'items.0.unit': 'กล่อง', due_date: '2026-12-17' });
    // the due date was a fill: a new date's fill replaces it
    applyFillAnswer({ due_date: '2026-12-25' }, (p) => values[p], set, last);
    expect(values.due_date).toBe('2026-12-25');
  });

  it('a field that still holds its schema default (never touched) takes its fill; a typed one does not', () => {
    const values: Record<string, unknown> = { credit_term_days: 0, contact_name: 'typed' };
    const set = (p: string, v: unknown) => { values[p] = v; };
    const done = applyFillAnswer({ credit_term_days: 30, contact_name: 'คุณวิภา' }, (p) => values[p], set, {}, (p) => p === 'credit_term_days');
    expect(done).toEqual(['credit_term_days']);
    expect(values).toEqual({ credit_term_days: 30, contact_name: 'typed' });
  });
});
