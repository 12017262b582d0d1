import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { issuePreview } from './issue-preview.ts';

const invoice = {
  name: 'tax_invoice',
  numbering: { field: 'doc_no', prefix: 'IV', pattern: '{your_company_id.code}-{prefix}{YYYY}{MM}-{seq:4}', resetEvery: 'month', assignOn: 'post', per: ['your_company_id'], dateField: 'doc_date', dateRule: 'issue' },
} as unknown as EntitySchema;

describe('issuePreview: what the issue confirmation states', () => {
  it('the series of the document\'s date, with the company\'s code, and that date in the Buddhist era', () => {
    const p = issuePreview(invoice, { doc_date: '2026-10-05' }, { 'your_company_id.code': 'TPT' }, 'th');
    expect(p).toEqual({ series: 'TPT-IV202610-…', date: '5 ต.ค. 2569' });
  });

  it('an empty date is today (the server dates it so), in Bangkok', () => {
    // 2026-11-30 20:00 UTC is 1 December in Bangkok
    const p = issuePreview(invoice, { doc_date: null }, { 'your_company_id.code': 'TPT' }, 'en', new Date('2026-11-30T20:00:00Z'));
    expect(p).toEqual({ series: 'TPT-IV202612-…', date: '1 Dec 2026' });
  });

  it('nothing for a document numbered when it is created', () => {
    const quotation = { ...invoice, numbering: { ...invoice.numbering!, assignOn: 'create' } } as EntitySchema;
    expect(issuePreview(quotation, {}, {}, 'th')).toBeNull();
  });
});
