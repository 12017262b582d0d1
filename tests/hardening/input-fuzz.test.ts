/**
 * Issue 45 §2: bad input for every entity, action, create-from route, fill route, the POS sale and every
 * report, built by fast-check from the schema files (a new schema file is fuzzed without test code). Every
 * answer is below 500; a 4xx carries a code and a message (Thai when asked for); after a 4xx nothing was
 * written (the entity's and its lines' row counts, its newest change, the audit log).
 * The seed is random per run and printed; INPUT_FUZZ_SEED (or PROPERTY_SEED) replays one,
 * INPUT_FUZZ_RUNS sets the requests per entity and route kind (default 4; raw bodies and bulk half of it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { enablingSettings, type EntitySchema } from '../../engine/schema/schema-types.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { readReportDir } from '../../server/reports/report-catalogue.ts';
import { createTestApp, SCHEMAS_DIR, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { setSiteSettings } from '../support/site-settings.ts';
import { sampleRecord } from '../support/sample-records.ts';
import { applyMutation, fillInputs, withoutFilled, badNumbers, badValueFor, MISSING_ID, mutationFor, rawBodies, wrongTypes } from '../support/fuzz-inputs.ts';
import { join } from 'node:path';

type Row = Record<string, unknown>;
type Req = { method: 'POST' | 'PUT' | 'PATCH' | 'GET'; url: string; payload?: unknown; raw?: string; th: boolean };

const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
const reports = readReportDir(join(SCHEMAS_DIR, 'reports'), registry);
const entities = registry.all().filter((e) => e.kind !== 'lines').map((e) => e.name).sort();
const SEED = Number(process.env.INPUT_FUZZ_SEED ?? process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.INPUT_FUZZ_RUNS ?? 4);
const THAI = /[\u0E00-\u0E7F]/;
const seedOf = (name: string) => [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, SEED);

const linesOf = (e: EntitySchema) => Object.values(e.fields).filter((f) => f.type === 'lines').map((f) => f.entity!);

describe.each(testDialects())('input fuzzing on %s', (dialect) => {
  let t: TestApp;
  /** Each entity's valid sample body and, when it could be created, its id. */
  const bases = new Map<string, { body: Row; id: number | null }>();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const features = [...new Set(registry.all().flatMap((e) => (e.enabledBy ? enablingSettings(e) : [])))];
    await setSiteSettings(t.app, t.headers, { do_create_type: 'create_without_so', is_po_allow_duplicate_product: true, ...Object.fromEntries(features.map((n) => [n, true])) });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function baseOf(name: string): Promise<{ body: Row; id: number | null }> {
    if (!bases.has(name)) {
      const e = registry.get(name)!;
      let body: Row = {};
      let id: number | null = null;
      try {
        body = await sampleRecord(e, registry, 1, { app: t.app, headers: t.headers });
        if (!e.document?.sale) {
          const res = await t.app.inject({ method: 'POST', url: `/api/${name}`, headers: t.headers, payload: body as never });
          if (res.statusCode === 201) id = Number(res.json().data.id);
        }
      } catch { /* an entity the sampler cannot fill is fuzzed from an empty body */ }
      bases.set(name, { body, id });
    }
    return bases.get(name)!;
  }

  /** What a write could change: the tables' row counts and newest change, and the audit log. */
  async function snapshot(tables: string[]): Promise<string> {
    const out: unknown[] = [];
    for (const table of [...tables, 'system_log']) {
      const r = await t.db.kysely.selectFrom(table).select([sql<number>`count(*)`.as('n'), sql<string>`max(id)`.as('top'),
        ...(table === 'system_log' ? [] : [sql<string>`max(updated_at)`.as('at')])]).executeTakeFirstOrThrow();
      out.push(table, Number(r.n), String(r.top), String((r as Row).at ?? ''));
    }
    return JSON.stringify(out);
  }

  async function send(req: Req) {
    const headers: Record<string, string> = { ...t.headers, ...(req.th ? { 'accept-language': 'th' } : {}), 'idempotency-key': `fuzz-${Math.random().toString(36).slice(2, 12)}` };
    if (req.raw !== undefined) headers['content-type'] = 'application/json';
    return t.app.inject({ method: req.method, url: req.url, headers, ...(req.raw !== undefined ? { payload: req.raw } : req.payload !== undefined ? { payload: req.payload as never } : {}) });
  }

  /** Sends each request and checks the answer; after a 4xx, that nothing was written. */
  async function check(label: string, tables: string[], arb: fc.Arbitrary<Req>, runs = RUNS): Promise<void> {
    await fc.assert(fc.asyncProperty(arb, async (req) => {
      const before = await snapshot(tables);
      const res = await send(req);
      const what = `${label}: ${req.method} ${req.url} ${(req.raw ?? JSON.stringify(req.payload) ?? '').slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 400)}`;
      expect(res.statusCode, what).toBeLessThan(500);
      if (res.statusCode < 400) return;
      const error = res.json().error;
      expect(typeof error?.code, what).toBe('string');
      expect(typeof error?.message === 'string' && error.message.length > 0, what).toBe(true);
      if (req.th) expect(error.message, what).toMatch(THAI);
      expect(await snapshot(tables), `${what}: a refused request wrote`).toBe(before);
    }), { seed: seedOf(label), numRuns: Math.max(1, Math.round(runs)), endOnFailure: true, verbose: 0 }).catch((err: Error) => {
      throw new Error(`${err.message}\nreplay the whole run: INPUT_FUZZ_SEED=${SEED}`);
    });
  }

  it.each(entities)('%s: creates, bulk creates, updates, fills, actions and create-from with bad input', async (name) => {
    const e = registry.get(name)!;
    const { body, id } = await baseOf(name);
    const tables = [name, ...linesOf(e)];
    const th = fc.boolean();
    const lookup = (n: string) => registry.get(n);
    const mutated = fc.tuple(mutationFor(e, lookup), fc.boolean()).map(([m, bare]) => applyMutation(bare ? withoutFilled(e, body, lookup) : body, m));
    const firstField = Object.keys(e.fields)[0];
    await check(`${dialect} ${name} create`, tables, fc.record({ method: fc.constant('POST' as const), url: fc.constant(`/api/${name}`), payload: mutated, th }));
    const feeds = fillInputs(e);
    if (feeds.length) {
      // what the fills compute from, made wrong, with what they fill left out: they must never see it
      await check(`${dialect} ${name} fill inputs`, tables, fc.record({
        method: fc.constant('POST' as const), url: fc.constant(`/api/${name}`), th,
        payload: fc.constantFrom(...feeds).chain((f) => badValueFor(e.fields[f]!).map((value) => applyMutation(withoutFilled(e, body, lookup), { kind: 'field', field: f, value }))),
      }));
    }
    await check(`${dialect} ${name} raw`, tables, fc.record({ method: fc.constant('POST' as const), url: fc.constant(`/api/${name}`), raw: rawBodies(body, firstField), th }), RUNS / 2);
    if (!e.document?.sale) {
      await check(`${dialect} ${name} bulk`, tables, fc.record({ method: fc.constant('POST' as const), url: fc.constant(`/api/${name}/bulk`), payload: fc.tuple(mutated, fc.boolean()).map(([m, twice]) => ({ items: twice ? [m, m] : [m] })), th }), RUNS / 2);
      await check(`${dialect} ${name} update`, tables, fc.record({
        method: fc.constantFrom('PATCH' as const, 'PUT' as const), url: fc.constant(`/api/${name}/${id ?? MISSING_ID}`), th,
        payload: fc.tuple(mutationFor(e, lookup), fc.boolean()).map(([m, whole]) => applyMutation(whole ? withoutFilled(e, body, lookup) : {}, m)),
      }));
    }

    if (e.workflow && id !== null) {
      const actions = e.workflow.transitions.map((tr) => ({ action: tr.action, fields: tr.fields ?? [] }));
      await check(`${dialect} ${name} actions`, tables, fc.record({
        method: fc.constant('POST' as const), th,
        url: fc.oneof(fc.constantFrom(...actions).map((a) => `/api/${name}/${id}/actions/${a.action}`), fc.constant(`/api/${name}/${MISSING_ID}/actions/${actions[0]!.action}`)),
        payload: fc.constantFrom(...actions).chain((a) => fc.oneof(
          wrongTypes.map((v) => ({ zz_unknown: v })),
          ...(a.fields.length ? [fc.constantFrom(...a.fields).chain((f) => badValueFor(e.fields[f]!).map((v) => ({ [f]: v })))] : []),
        )),
      }));
    }

    for (const spec of e.document?.from ?? []) {
      const source = await baseOf(spec.source);
      const srcId = source.id ?? MISSING_ID;
      const lineIds = fc.constantFrom(MISSING_ID, -1, 0, 'x', srcId);
      await check(`${dialect} ${name} from ${spec.source}`, tables, fc.record({
        method: fc.constant('POST' as const), url: fc.constant(`/api/${name}/from/${spec.source}`), th,
        payload: fc.oneof(
          wrongTypes.map((ids) => ({ ids })),
          fc.constant({ ids: [MISSING_ID] }),
          fc.constant({ ids: Array.from({ length: 51 }, (_, i) => i + 1) }),
          fc.record({ ids: fc.constant([srcId]), lines: fc.oneof(wrongTypes, fc.array(fc.record({ source_line_id: lineIds, qty: fc.oneof(badNumbers, wrongTypes) }), { maxLength: 3 })) }),
          fc.record({ ids: fc.constant([srcId]), values: fc.oneof(wrongTypes, mutated) }),
        ),
      }));
    }

    const fields = Object.keys(e.fields);
    const fillable = await t.app.inject({ method: 'POST', url: `/api/${name}/fills`, headers: t.headers, payload: {} });
    if (fillable.statusCode !== 404) {
      await check(`${dialect} ${name} fills`, tables, fc.record({
        method: fc.constant('POST' as const), url: fc.constant(`/api/${name}/fills`), th,
        payload: fc.record({ record: fc.oneof(mutated, wrongTypes), changed: fc.oneof(fc.constantFrom(...fields), fc.constantFrom('items.0.product_id', 'items.99.qty', 'x'.repeat(300), '..')) }),
      }));
    }
  });

  it.each(reports.map((r) => r.name))('report %s: bad parameters answer 4xx', async (name) => {
    const def = reports.find((r) => r.name === name)!;
    const params = def.parameters.map((p) => p.name);
    const badParam = fc.oneof(fc.constantFrom('2026-13-01', '0000-00-00', '2026-13', '-1', '1e999', String(MISSING_ID), 'x'.repeat(5000), '%00', '[]', '{"a":1}'), fc.string({ maxLength: 30 }));
    await check(`${dialect} report ${name}`, [], fc.record({
      method: fc.constant('GET' as const), th: fc.boolean(),
      url: fc.tuple(params.length ? fc.constantFrom(...params, 'zz_unknown', 'limit', 'offset', 'sort') : fc.constantFrom('zz_unknown', 'limit', 'offset', 'sort'), badParam)
        .map(([k, v]) => `/api/report/${name}?${new URLSearchParams({ [k]: v }).toString()}`),
    }));
  });
});
