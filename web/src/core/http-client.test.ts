// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest';
import { api, ApiError, CANNOT_CONNECT, download, downloadQuery, setLanguageSource, setTokenSource, URL_QUERY_LIMIT, useFetchForTests } from './http-client.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('http client', () => {
  let seen: Request[] = [];
  let bodies: string[] = [];
  beforeEach(() => { seen = []; bodies = []; setTokenSource(() => 'tok-123'); setLanguageSource(() => null); });

  const serve = (answer: (req: Request) => Response | Promise<Response>) =>
    useFetchForTests((async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      seen.push(req);
      bodies.push(req.body ? await req.clone().text() : '');
      return answer(req);
    }) as typeof fetch);

  it('sends the Bearer token and JSON', async () => {
    serve(() => json(200, { success: true, data: { ok: 1 } }));
    const res = await api.post<{ data: { ok: number } }>('http://x.test/api/role/id', { role_id: 1 });
    expect(res.data.ok).toBe(1);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-123');
    expect(seen[0]!.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(bodies[0]!)).toEqual({ role_id: 1 });
  });

  it('sends no content type on a body-less DELETE', async () => {
    serve(() => json(200, { success: true, data: { id: 1 } }));
    await api.delete('http://x.test/api/customer/1');
    expect(seen[0]!.method).toBe('DELETE');
    expect(seen[0]!.headers.get('content-type')).toBeNull();
  });

  it('maps a failure with no response to 408 "Cannot connect to the server"', async () => {
    serve(() => { throw new TypeError('Failed to fetch'); });
    const err = await api.get('http://x.test/api/customer').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(408);
    expect((err as ApiError).message).toBe(CANNOT_CONNECT);
  });

  it('maps the error envelope: status, code, message and field errors', async () => {
    serve(() => json(400, {
      success: false,
      error: { code: 'VALIDATION_FAILED', message: 'Some fields are not valid', details: { fields: [{ field: 'items.0.qty', code: 'required', message: 'is required' }] } },
    }));
    const err = (await api.post('http://x.test/api/customer', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.message).toBe('Some fields are not valid');
    expect(err.fields).toEqual([{ field: 'items.0.qty', code: 'required', message: 'is required' }]);
  });

  it('maps a conflict that names only its fields', async () => {
    serve(() => json(409, { success: false, error: { code: 'CONFLICT', message: 'Another customer already has this code', details: { fields: ['code'] } } }));
    const err = (await api.put('http://x.test/api/customer/2', { code: 'C001' }).catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(409);
    expect(err.fields).toEqual([{ field: 'code', code: 'CONFLICT', message: 'Another customer already has this code' }]);
  });

  it('keeps the status of a non-JSON error answer', async () => {
    serve(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const err = (await api.get('http://x.test/api/settingsite/1').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(502);
    expect(err.code).toBe('HTTP_502');
  });

  it('maps 401 so callers can show the session-expired modal', async () => {
    serve(() => json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'Sign in to continue' } }));
    const err = (await api.get('http://x.test/api/menu').catch((e: unknown) => e)) as ApiError;
    expect(err.status).toBe(401);
    expect(err.code).toBe('UNAUTHORIZED');
  });

  it('has no timeout: a slow answer still arrives', async () => {
    serve(() => new Promise((r) => setTimeout(() => r(json(200, { success: true, data: 1 })), 50)));
    await expect(api.get('http://x.test/api/slow')).resolves.toEqual({ success: true, data: 1 });
  });

  it('in Thai: asks with Accept-Language and renders the code, its params and the field codes in Thai', async () => {
    setLanguageSource(() => 'th');
    serve(() => json(409, {
      success: false,
      error: {
        code: 'CONFLICT', message: 'Another Cause of waste already has this code',
        params: { entity: { th: 'สาเหตุของเสีย', en: 'Cause of waste' }, fields: { th: 'รหัส', en: 'code' } },
        details: { fields: [{ field: 'code', code: 'unique', message: 'is already used by another record' }] },
      },
    }));
    const err = (await api.post('http://x.test/api/causes_of_waste', {}).catch((e: unknown) => e)) as ApiError;
    expect(seen[0]!.headers.get('accept-language')).toBe('th');
    expect(err.message).toBe('มีสาเหตุของเสียอื่นใช้รหัสนี้แล้ว');
    expect(err.fields).toEqual([{ field: 'code', code: 'unique', message: 'ค่านี้ถูกใช้โดยข้อมูลอื่นแล้ว' }]);
  });

  it('in Thai: a 4xx without field problems reads as the server wrote it, not as its code\'s general text', async () => {
    setLanguageSource(() => 'th');
    const written = 'ยอดรับชำระ 1,500.00 มากกว่ายอดค้างของใบวางบิล 1,200.00';
    serve(() => json(422, { success: false, error: { code: 'BAD_REQUEST', message: written } }));
    const err = (await api.post('http://x.test/api/receipt/from/billing_note', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.message).toBe(written);
    expect(err.code).toBe('BAD_REQUEST');
  });

  const file = () => new Response('a,b\r\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="product.csv"' } });

  it('downloads a blob by GET with the token in Authorization and x-access-token', async () => {
    serve(file);
    const res = await download('http://x.test/api/product/export', { format: 'csv', empty: '' });
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url).toBe('http://x.test/api/product/export?format=csv');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-123');
    expect(seen[0]!.headers.get('x-access-token')).toBe('tok-123');
    expect(res.fileName).toBe('product.csv');
    expect(await res.blob.text()).toBe('a,b\r\n');
  });

  it('downloads a blob by POST with a JSON body', async () => {
    serve(file);
    await download('http://x.test/api/product/export', {}, { filter: { id: { _in: [1, 2] } } });
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers.get('x-access-token')).toBe('tok-123');
    expect(JSON.parse(bodies[0]!)).toEqual({ filter: { id: { _in: [1, 2] } } });
  });

  it('a download too long for a URL goes by POST, a short one by GET', async () => {
    serve(file);
    const ids = Array.from({ length: 800 }, (_, i) => i + 1);
    const filter = JSON.stringify({ id: { _in: ids } });
    expect(filter.length).toBeGreaterThan(URL_QUERY_LIMIT);
    await downloadQuery('http://x.test/api/product/export', { format: 'csv', filter });
    await downloadQuery('http://x.test/api/product/export', { format: 'csv', filter: '{"id":{"_in":[1]}}' });
    expect(seen.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(seen[0]!.url).toBe('http://x.test/api/product/export');
    expect(JSON.parse(bodies[0]!)).toEqual({ format: 'csv', filter });
  });
});
