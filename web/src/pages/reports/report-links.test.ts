import { describe, expect, it } from 'vitest';
import { fillLink, paramsFromUrl } from './report-links.ts';
import type { ReportParam } from './report-api.ts';

const label = { th: 'x', en: 'x' };
const parameters: ReportParam[] = [
  { name: 'account', type: 'text', label }, { name: 'date_from', type: 'date', label }, { name: 'company', type: 'link', entity: 'your_company', label },
  { name: 'isFilterStock', type: 'boolean', label },
];

describe('a report screen\'s address and links', () => {
  it('reads the parameters the report declares from the address, typed as the inputs hold them', () => {
    expect(paramsFromUrl({ parameters }, new URLSearchParams('account=1141&date_from=2026-01-01&company=3&isFilterStock=true&other=1&page=2'))).toEqual({
      account: '1141', date_from: '2026-01-01', company: 3, isFilterStock: true,
    });
    expect(paramsFromUrl({ parameters }, new URLSearchParams('company=&account='))).toEqual({});
  });

  it('fills a link from the row and from the parameters as the report ran, dropping empty query parameters', () => {
    const t = '/general_ledger?account={account_code}&date_from={$date_from}&company={$company}';
    expect(fillLink(t, { account_code: '1141' }, { date_from: '2026-01-01', company: 2 })).toBe('/general_ledger?account=1141&date_from=2026-01-01&company=2');
    expect(fillLink(t, { account_code: '1141' }, { date_from: '2026-01-01', company: null })).toBe('/general_ledger?account=1141&date_from=2026-01-01');
    expect(fillLink('/delivery_order/{doc_id}', { doc_id: 7 }, {})).toBe('/delivery_order/7');
    // a general ledger row's source document is a path: its slash stays one (it was sent as %2F, and the row opened nothing)
    expect(fillLink('/{source_path}', { source_path: 'tax_invoice/22' }, {})).toBe('/tax_invoice/22');
    expect(fillLink('/x?a={v}', { v: 'a/b c' }, {})).toBe('/x?a=a%2Fb%20c');
  });
});
