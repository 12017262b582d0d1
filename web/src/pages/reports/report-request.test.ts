// @vitest-environment happy-dom
/**
 * A report screen opened cold: its definition (GET /api/report/{name}/definition) and its first rows are asked by the
 * boot entry as the screen asks them, so the screen takes those answers, once, and never waits for the report list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, setLanguageSource, setTokenSource, useFetchForTests } from '../../core/http-client.ts';
import { clearEarly, pendingEarly, sendEarly } from '../../core/early-requests.ts';
import { reportDefinitionCall } from '../../core/startup-calls.ts';
import { DEFAULT_TABLE_VIEW } from '../../core/table-view.ts';
import { fetchReportDefinition, type ReportSummary } from './report-api.ts';
import { firstReportCalls, reportPageCall, reportQuery } from './report-request.ts';

const report: ReportSummary = {
  name: 'stock_report_test', label: { th: 'ทดสอบ', en: 'Test' }, menuKey: 'stock_report_test', menuGroup: 'stock_reports', routeParam: 'inventory_id',
  parameters: [
    { name: 'selectedInventory', type: 'link', entity: 'inventory', label: { th: 'คลัง', en: 'Inventory' } },
    { name: 'date_to', type: 'date', label: { th: 'ถึงวันที่', en: 'To' }, default: 'today' },
    { name: 'account', type: 'integer', label: { th: 'บัญชี', en: 'Account' } },
  ],
  chart: { type: 'bar', label: 'product', series: ['qty'], limit: 20 }, columns: [], totals: [],
};

describe('a report screen\'s first calls', () => {
  it('send the remembered and the address\'s parameters, never the defaults (the server fills those)', () => {
    const view = { ...DEFAULT_TABLE_VIEW, selectedInventory: 3, filter: { account: 1100 }, page: 2, pageSize: 50 };
    expect(reportQuery(report, view, { account: 2100 })).toEqual({ selectedInventory: '3', account: '2100' });
    expect(reportQuery(report, DEFAULT_TABLE_VIEW, {}, '9')).toEqual({ inventory_id: '9' });
    const [page, chart] = firstReportCalls(report, view, new URLSearchParams('account=2100&unknown=1'));
    expect(page).toEqual(reportPageCall(report.name, { selectedInventory: '3', account: '2100' }, 2, 50));
    expect(chart!.searchParams).toMatchObject({ page: 1, limit: 20 });
    expect(firstReportCalls({ ...report, chart: null }, DEFAULT_TABLE_VIEW, new URLSearchParams())).toEqual([reportPageCall(report.name, {}, 1, 100)]);
  });

  describe('sent early', () => {
    let late: string[] = [];
    beforeEach(() => {
      late = [];
      clearEarly();
      localStorage.setItem('id_token', 'tok-1');
      setTokenSource(() => 'tok-1');
      setLanguageSource(() => 'th');
      vi.stubGlobal('fetch', (url: string) => Promise.resolve(new Response(JSON.stringify({ success: true, data: url.endsWith('/definition') ? report : 'early' }), { status: 200 })));
      useFetchForTests((async (input: RequestInfo | URL) => {
        late.push(input instanceof Request ? input.url : String(input));
        return new Response(JSON.stringify({ success: true, data: 'late' }), { status: 200 });
      }) as typeof fetch);
    });
    afterEach(() => { vi.unstubAllGlobals(); localStorage.clear(); });

    it('the definition and the rows are taken by the screen, each once', async () => {
      sendEarly(reportDefinitionCall(report.name), 'tok-1', 'th');
      expect(await fetchReportDefinition(report.name)).toEqual(report);
      // asked again on the same session: the same answer, not another request
      expect(await fetchReportDefinition(report.name)).toEqual(report);
      const calls = firstReportCalls(report, DEFAULT_TABLE_VIEW, new URLSearchParams());
      for (const c of calls) sendEarly(c, 'tok-1', 'th');
      for (const c of calls) expect((await api.get<{ data: string }>(c.path, { searchParams: c.searchParams })).data).toBe('early');
      expect(late).toEqual([]);
      expect(pendingEarly()).toEqual([]);
    });
  });
});
