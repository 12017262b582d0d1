import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { ApiError } from './api-error.ts';
import { errorToast } from './error-detail.ts';

const t = (key: string, p?: Record<string, unknown>) => (key === 'error.row' ? `แถวที่ ${String(p?.n)}` : key);
const receipt = {
  fields: { doc_date: { type: 'date', label: { th: 'วันที่เอกสาร', en: 'Date' } }, items: { type: 'lines', entity: 'receipt_item', label: { th: 'รายการ', en: 'Lines' } } },
} as unknown as EntitySchema;
const lines = { receipt_item: { fields: { amount: { type: 'money', label: { th: 'จำนวนเงิน', en: 'Amount' } } } } as unknown as EntitySchema };

describe('errorToast', () => {
  it('names each field the server named by its label, with the server\'s message, and says what to do', () => {
    const err = new ApiError(422, 'ข้อมูลบางช่องไม่ถูกต้อง', 'VALIDATION_FAILED', [
      { field: 'doc_date', code: 'issue_date_order', message: 'ต้องไม่ก่อนวันที่ 2026-11-20' },
      { field: 'items.1.amount', code: 'minimum', message: 'ต้องไม่น้อยกว่า 0' },
    ]);
    const { summary, detail } = errorToast(err, t, 'th', receipt, lines);
    expect(summary).toBe('ข้อมูลบางช่องไม่ถูกต้อง');
    expect(detail).toBe('วันที่เอกสาร: ต้องไม่ก่อนวันที่ 2026-11-20 · รายการ แถวที่ 2: จำนวนเงิน: ต้องไม่น้อยกว่า 0. error.fix_marked');
  });

  it('an error without fields is shown as it came', () => {
    expect(errorToast(new ApiError(409, 'ใบวางบิลนี้ชำระครบแล้ว', 'CONFLICT'), t, 'th')).toEqual({ summary: 'common.error', detail: 'ใบวางบิลนี้ชำระครบแล้ว' });
  });
});
