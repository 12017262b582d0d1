// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, setLanguageSource, setTokenSource, useFetchForTests } from './http-client.ts';
import { clearEarly, EARLY_TTL_MS, pendingEarly, sendEarly } from './early-requests.ts';
import { listCall } from './list-params.ts';
import { readRecord } from './record-api.ts';
import { recordCall } from './startup-calls.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('answers the boot entry asked for early', () => {
  let early: Array<{ url: string; init: RequestInit }> = [];
  let late: string[] = [];
  beforeEach(() => {
    early = []; late = [];
    clearEarly();
    setTokenSource(() => 'tok-1');
    setLanguageSource(() => 'th');
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      early.push({ url, init });
      return Promise.resolve(url.startsWith('/api/missing') ? json(404, { success: false, error: { code: 'NOT_FOUND', message: 'gone' } }) : json(200, { success: true, data: { from: 'early', url } }));
    });
    useFetchForTests((async (input: RequestInfo | URL) => {
      const u = input instanceof Request ? input.url : String(input);
      late.push(u);
      return json(200, { success: true, data: { from: 'late' } });
    }) as typeof fetch);
  });
  afterEach(() => { vi.unstubAllGlobals(); vi.useRealTimers(); });

  it('sends the call with the token, the language and the JSON body the client would send', () => {
    sendEarly({ method: 'post', path: '/api/role/id', json: { role_id: 2 } }, 'tok-1', 'en');
    expect(early).toHaveLength(1);
    expect(early[0]!.url).toBe('/api/role/id');
    expect(early[0]!.init.method).toBe('POST');
    expect(early[0]!.init.headers).toMatchObject({ Authorization: 'Bearer tok-1', 'Accept-Language': 'en', 'Content-Type': 'application/json' });
    expect(early[0]!.init.body).toBe('{"role_id":2}');
  });

  it('the same call from the app takes the early answer once; the next one goes to the network', async () => {
    sendEarly({ method: 'post', path: '/api/role/id', json: { role_id: 2 } }, 'tok-1', 'th');
    const first = await api.post<{ data: { from: string } }>('/api/role/id', { role_id: 2 });
    expect(first.data.from).toBe('early');
    expect(late).toHaveLength(0);
    const second = await api.post<{ data: { from: string } }>('/api/role/id', { role_id: 2 });
    expect(second.data.from).toBe('late');
    expect(pendingEarly()).toEqual([]);
  });

  it('a list page matches on its query, built the same way by the boot entry and the list', async () => {
    const req = { entity: 'product', fields: ['id', 'code'], filter: {}, sort: '-code', search: '', page: 1, limit: 50 };
    const c = listCall(req);
    sendEarly(c, 'tok-1', 'th');
    expect(early[0]!.url).toBe('/api/product?page=1&limit=50&meta=total_count&fields=id%2Ccode&sort=-code');
    const other = await api.get<{ data: { from: string } }>('/api/product', { searchParams: { ...c.searchParams, page: 2 } });
    expect(other.data.from).toBe('late');
    const same = await api.get<{ data: { from: string } }>(c.path, { searchParams: c.searchParams });
    expect(same.data.from).toBe('early');
  });

  it("a record's early call is the one the record form makes (readRecord, no fields); a read with fields is another", async () => {
    sendEarly(recordCall('quotation', '7'), 'tok-1', 'th');
    expect(early[0]!.url).toBe('/api/quotation/7');
    const withFields = await readRecord<{ from: string }>('quotation', 7, ['id']);
    expect(withFields.success && withFields.data.from).toBe('late');
    const form = await readRecord<{ from: string }>('quotation', 7);
    expect(form.success && form.data.from).toBe('early');
    expect(pendingEarly()).toEqual([]);
  });

  it('is not used for another session, nor after it went stale', async () => {
    sendEarly({ method: 'get', path: '/api/menu' }, 'tok-old', 'th');
    expect((await api.get<{ data: { from: string } }>('/api/menu')).data.from).toBe('late');
    vi.useFakeTimers({ toFake: ['Date'] });
    sendEarly({ method: 'get', path: '/api/settingsite/1' }, 'tok-1', 'th');
    vi.setSystemTime(Date.now() + EARLY_TTL_MS + 1);
    expect((await api.get<{ data: { from: string } }>('/api/settingsite/1')).data.from).toBe('late');
  });

  it('an early error answer becomes the same ApiError the client gives', async () => {
    sendEarly({ method: 'get', path: '/api/missing' }, 'tok-1', 'th');
    const err = await api.get('/api/missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).code).toBe('NOT_FOUND');
  });
});
