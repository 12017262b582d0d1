/**
 * A void from the generic form asks for its reason (issue 52 §3): the confirm dialog asks for the transition's word
 * fields (a sale's refund_reason) and sends what was typed with the action; an action without them sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { actionBody, askedFields } from './action-fields.ts';

const schema = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../schemas/${name}.json`), 'utf8')) as EntitySchema;
const transition = (e: EntitySchema, action: string) => e.workflow!.transitions.find((t) => t.action === action)!;

describe('the fields an action asks for', () => {
  const sale = schema('pos_order');
  const refund = transition(sale, 'refund');

  it('asks a sale\'s void for its reason, labelled in Thai, and sends it trimmed', () => {
    expect(askedFields(sale, refund)).toEqual(['refund_reason']);
    expect(sale.fields.refund_reason!.label.th).toBe('เหตุผลการคืนเงิน/ยกเลิก');
    expect(actionBody(sale, refund, { refund_reason: '  ลูกค้ายกเลิกการซื้อ ' })).toEqual({ refund_reason: 'ลูกค้ายกเลิกการซื้อ' });
    // left blank: nothing sent (the reason is optional on the server)
    expect(actionBody(sale, refund, { refund_reason: '   ' })).toEqual({});
    // a field the action does not take is never sent (the server would refuse it as UNKNOWN_FIELD)
    expect(actionBody(sale, refund, { remark: 'x' })).toEqual({});
  });

  it('asks nothing of an action without word fields: a posting, or a shift\'s close with its counted cash', () => {
    const invoice = schema('tax_invoice');
    for (const tr of invoice.workflow!.transitions) expect(askedFields(invoice, tr)).toEqual([]);
    expect(askedFields(schema('pos_shift'), transition(schema('pos_shift'), 'close'))).toEqual([]);
  });
});
