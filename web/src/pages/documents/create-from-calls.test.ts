// @vitest-environment happy-dom
/**
 * The calls a create-from screen makes first, built once for the screen and for the boot entry (real schema files):
 * the boot entry's early answers are the screen's, taken once (core/early-requests.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import type { EntityMeta } from '../../core/entity-meta.ts';
import { api, setLanguageSource, setTokenSource, useFetchForTests } from '../../core/http-client.ts';
import { clearEarly, pendingEarly, sendEarly } from '../../core/early-requests.ts';
import { ALL_PARTIES, createFromSpec, firstCreateFromCalls, openDocumentsCall, partyOf } from './create-from-calls.ts';

const schema = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../../schemas/${name}.json`), 'utf8')) as EntitySchema;
const meta = (name: string, related: string[] = []): EntityMeta => ({ entity: schema(name), related: Object.fromEntries(related.map((r) => [r, schema(r)])) });

describe('a create-from screen\'s first calls', () => {
  const target = meta('receipt');
  const source = meta('billing_note', ['customer']);

  it('are the parties, the source document it was opened from, and every open document', () => {
    const calls = firstCreateFromCalls(target, source, 12);
    expect(calls.map((c) => c.path)).toEqual(['/api/customer', '/api/billing_note/12', '/api/billing_note']);
    const documents = calls[2]!.searchParams!;
    expect(JSON.parse(String(documents.filter))).toEqual({ status: { _in: ['issued', 'partially_paid'] } });
    expect(String(documents.fields).split(',')).toEqual(expect.arrayContaining(['id', 'bill_no', 'status']));
    // without ?source= the source document is not asked for
    expect(firstCreateFromCalls(target, source).map((c) => c.path)).toEqual(['/api/customer', '/api/billing_note']);
  });

  it('one party\'s documents are another call than every party\'s', () => {
    const spec = createFromSpec(target.entity, 'billing_note')!;
    const one = openDocumentsCall(spec, source.entity, partyOf(source), '7')!;
    expect(JSON.parse(String(one.searchParams!.filter))).toMatchObject({ customer_id: { _eq: 7 } });
    expect(one).not.toEqual(openDocumentsCall(spec, source.entity, partyOf(source), ALL_PARTIES));
  });

  it('none when the target declares no screen from that source', () => {
    expect(firstCreateFromCalls(target, meta('quotation'))).toEqual([]);
  });

  describe('sent early', () => {
    let late: string[] = [];
    beforeEach(() => {
      late = [];
      clearEarly();
      setTokenSource(() => 'tok-1');
      setLanguageSource(() => 'th');
      vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ success: true, data: 'early' }), { status: 200 })));
      useFetchForTests((async (input: RequestInfo | URL) => {
        late.push(input instanceof Request ? input.url : String(input));
        return new Response(JSON.stringify({ success: true, data: 'late' }), { status: 200 });
      }) as typeof fetch);
    });
    afterEach(() => vi.unstubAllGlobals());

    it('are taken by the screen\'s own calls, each once', async () => {
      const calls = firstCreateFromCalls(target, source, 12);
      for (const c of calls) sendEarly(c, 'tok-1', 'th');
      // the screen asks with the same builders (CreateFromPage.tsx)
      for (const c of calls) expect((await api.get<{ data: string }>(c.path, { searchParams: c.searchParams })).data).toBe('early');
      expect(late).toEqual([]);
      expect(pendingEarly()).toEqual([]);
    });
  });
});
