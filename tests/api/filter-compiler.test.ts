/**
 * The filter grammar compiled to SQL, against real rows on every dialect:
 * each operator, money scaling, booleans, dates, nulls, text matching with
 * Thai and LIKE wildcards, paths through links, and injection attempts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { label, tempSchemasDir } from '../support/temp-schemas.ts';
import { sampleRecord } from '../support/sample-records.ts';

const country = {
  name: 'country', label: label('Country'), kind: 'master', titleField: 'code',
  fields: { code: { type: 'string', label: label('Code'), required: true } },
};
const maker = {
  name: 'maker', label: label('Maker'), kind: 'master', titleField: 'name',
  fields: { name: { type: 'string', label: label('Name'), required: true }, country_id: { type: 'link', entity: 'country', label: label('Country') } },
};
const gadget = {
  name: 'gadget', label: label('Gadget'), kind: 'master', titleField: 'code', softDelete: true,
  searchFields: ['code', 'name'],
  fields: {
    code: { type: 'string', label: label('Code'), required: true, unique: true },
    name: { type: 'string', label: label('Name') },
    note: { type: 'string', label: label('Note') },
    price: { type: 'money', label: label('Price') },
    qty: { type: 'integer', label: label('Qty') },
    active: { type: 'boolean', label: label('Active') },
    made_on: { type: 'date', label: label('Made on') },
    stamp: { type: 'datetime', label: label('Stamp') },
    maker_id: { type: 'link', entity: 'maker', label: label('Maker') },
  },
};

const GADGETS = [
  { code: 'G1', name: '50% off', note: 'Abc Co', price: 12.34, qty: 5, active: true, made_on: '2024-03-01', stamp: '2024-03-01T10:00:00.000Z', maker: 'Acme' },
  { code: 'G2', name: '50 percent', note: 'abc co', price: 5.5, qty: 0, active: false, made_on: '2024-07-15', stamp: '2024-07-15T23:59:59.000Z', maker: 'Beta' },
  { code: 'G3', name: 'a_b ไทย', note: null, price: 100, qty: null, active: null, made_on: null, stamp: null, maker: null },
  { code: 'G4', name: 'axb บริษัท ไทยรุ่งเรือง', note: 'back\\slash', price: null, qty: -3, active: true, made_on: '2023-12-31', stamp: '2023-12-31T16:59:59.000Z', maker: 'Gamma' },
  { code: 'g5', name: 'Thai ไทย', note: 'ABC', price: 0.1, qty: 10, active: false, made_on: '2024-12-31', stamp: '2024-12-31T00:00:00.000Z', maker: 'Acme' },
];
const ALL = ['G1', 'G2', 'G3', 'G4', 'g5'];

describe.each(testDialects())('filters compiled to SQL on %s', (dialect) => {
  const schemas = tempSchemasDir([country, maker, gadget], true);
  let t: TestApp;

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });
  const post = async (entity: string, payload: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/${entity}`, headers: t.headers, payload: payload as object });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  /** Codes of the gadgets a filter selects, in code order. */
  const codes = async (filter: unknown, extra = '') => {
    const res = await get(`/api/gadget?limit=100&sort=code&filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { code: string }[]).map((r) => r.code);
  };
  const errorCode = async (query: string) => {
    const res = await get(`/api/gadget?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    return res.json().error.code as string;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, schemas.dir);
    const th = await post('country', { code: 'TH' });
    const jp = await post('country', { code: 'JP' });
    const makers: Record<string, number> = {
      Acme: await post('maker', { name: 'Acme', country_id: th }),
      Beta: await post('maker', { name: 'Beta', country_id: jp }),
      Gamma: await post('maker', { name: 'Gamma', country_id: null }),
    };
    for (const { maker: m, ...g } of GADGETS) await post('gadget', { ...g, maker_id: m ? makers[m] : null });
  });
  afterAll(async () => {
    await t?.close();
    schemas.remove();
  });

  it('compares equality, including null', async () => {
    expect(await codes({ code: { _eq: 'G1' } })).toEqual(['G1']);
    expect(await codes({ code: { _eq: 'g1' } })).toEqual([]);
    expect(await codes({ qty: { _eq: 0 } })).toEqual(['G2']);
    expect(await codes({ qty: { _eq: null } })).toEqual(['G3']);
    expect(await codes({ qty: { _neq: null } })).toEqual(['G1', 'G2', 'G4', 'g5']);
  });

  it('_neq and _nin include rows where the value is null', async () => {
    expect(await codes({ qty: { _neq: 0 } })).toEqual(['G1', 'G3', 'G4', 'g5']);
    expect(await codes({ price: { _neq: 12.34 } })).toEqual(['G2', 'G3', 'G4', 'g5']);
    expect(await codes({ price: { _nin: [12.34, 0.1] } })).toEqual(['G2', 'G3', 'G4']);
  });

  it('scales money values like the stored ones', async () => {
    expect(await codes({ price: { _eq: 12.34 } })).toEqual(['G1']);
    expect(await codes({ price: { _eq: 0.1 } })).toEqual(['g5']);
    expect(await codes({ price: { _eq: '5.50' } })).toEqual(['G2']);
    expect(await codes({ price: { _lt: 12.34 } })).toEqual(['G2', 'g5']);
    expect(await codes({ price: { _lte: 12.34 } })).toEqual(['G1', 'G2', 'g5']);
    expect(await codes({ price: { _gt: 12.33 } })).toEqual(['G1', 'G3']);
    expect(await codes({ price: { _gte: 100 } })).toEqual(['G3']);
    expect(await codes({ price: { _in: [12.34, 0.1] } })).toEqual(['G1', 'g5']);
    expect(await codes({ price: { _between: [5.5, 12.34] } })).toEqual(['G1', 'G2']);
    expect(await codes({ price: { _between: '5.5,12.34' } })).toEqual(['G1', 'G2']);
    // the stored value is decoded back exactly
    const g1 = (await get('/api/gadget?filter=' + encodeURIComponent('{"code":{"_eq":"G1"}}'))).json().data[0];
    expect(g1.price).toBe(12.34);
  });

  it('compares integers, including negatives, with numbers given as text', async () => {
    expect(await codes({ qty: { _lt: 0 } })).toEqual(['G4']);
    expect(await codes({ qty: { _gte: '5' } })).toEqual(['G1', 'g5']);
    expect(await codes({ qty: { _in: '0,10' } })).toEqual(['G2', 'g5']);
  });

  it('_null and _nnull', async () => {
    expect(await codes({ price: { _null: true } })).toEqual(['G4']);
    expect(await codes({ price: { _null: false } })).toEqual(['G1', 'G2', 'G3', 'g5']);
    expect(await codes({ price: { _nnull: true } })).toEqual(['G1', 'G2', 'G3', 'g5']);
    expect(await codes({ maker_id: { _null: true } })).toEqual(['G3']);
    expect(await codes({ note: { _nnull: 'false' } })).toEqual(['G3']);
  });

  it('compares booleans', async () => {
    expect(await codes({ active: { _eq: true } })).toEqual(['G1', 'G4']);
    expect(await codes({ active: { _eq: false } })).toEqual(['G2', 'g5']);
    expect(await codes({ active: { _neq: true } })).toEqual(['G2', 'G3', 'g5']);
    expect(await codes({ active: { _null: true } })).toEqual(['G3']);
  });

  it('compares dates and datetimes (offsets normalised)', async () => {
    expect(await codes({ made_on: { _lt: '2024-01-01' } })).toEqual(['G4']);
    expect(await codes({ made_on: { _between: ['2024-01-01', '2024-07-15'] } })).toEqual(['G1', 'G2']);
    expect(await codes({ made_on: { _gte: '2024-07-15' } })).toEqual(['G2', 'g5']);
    expect(await codes({ stamp: { _gte: '2024-07-15T23:00:00Z' } })).toEqual(['G2', 'g5']);
    expect(await codes({ stamp: { _lt: '2024-01-01T00:00:00+07:00' } })).toEqual(['G4']);
    expect(await codes({ stamp: { _eq: '2024-03-01T17:00:00+07:00' } })).toEqual(['G1']);
  });

  it('_contains is case-sensitive, _icontains is not, both with Thai text', async () => {
    expect(await codes({ note: { _contains: 'Abc' } })).toEqual(['G1']);
    expect(await codes({ note: { _icontains: 'abc' } })).toEqual(['G1', 'G2', 'g5']);
    expect(await codes({ name: { _contains: 'ไทย' } })).toEqual(['G3', 'G4', 'g5']);
    expect(await codes({ name: { _icontains: 'ไทยรุ่ง' } })).toEqual(['G4']);
    expect(await codes({ name: { _icontains: 'THAI ไท' } })).toEqual(['g5']);
  });

  it('_starts_with is case-sensitive', async () => {
    expect(await codes({ code: { _starts_with: 'G' } })).toEqual(['G1', 'G2', 'G3', 'G4']);
    expect(await codes({ name: { _starts_with: 'Thai ไ' } })).toEqual(['g5']);
    expect(await codes({ name: { _starts_with: 'ไทย' } })).toEqual([]);
  });

  it('matches LIKE wildcards and backslashes in user text literally', async () => {
    expect(await codes({ name: { _icontains: '%' } })).toEqual(['G1']);
    expect(await codes({ name: { _icontains: '_' } })).toEqual(['G3']);
    expect(await codes({ name: { _icontains: 'a_b' } })).toEqual(['G3']);
    expect(await codes({ name: { _contains: 'a_b' } })).toEqual(['G3']);
    expect(await codes({ name: { _starts_with: '50%' } })).toEqual(['G1']);
    expect(await codes({ name: { _starts_with: '5_' } })).toEqual([]);
    expect(await codes({ note: { _icontains: '\\' } })).toEqual(['G4']);
    expect(await codes({ note: { _contains: 'k\\s' } })).toEqual(['G4']);
  });

  it('search matches wildcards literally too', async () => {
    const search = async (term: string) => (await get(`/api/gadget?sort=code&search=${encodeURIComponent(term)}`)).json().data.map((r: { code: string }) => r.code);
    expect(await search('%')).toEqual(['G1']);
    expect(await search('a_b')).toEqual(['G3']);
    expect(await search('g')).toEqual(ALL);
    expect(await search('ไทย')).toEqual(['G3', 'G4', 'g5']);
  });

  it('combines with _and and _or', async () => {
    expect(await codes({ _or: [{ code: { _eq: 'G1' } }, { qty: { _lt: 0 } }] })).toEqual(['G1', 'G4']);
    expect(await codes({ _and: [{ active: { _eq: true } }, { price: { _gt: 20 } }] })).toEqual([]);
    expect(await codes({ _or: [{ _and: [{ active: { _eq: false } }, { qty: { _gt: 1 } }] }, { price: { _null: true } }] })).toEqual(['G4', 'g5']);
  });

  it('filters through links with dots and in the nested form', async () => {
    expect(await codes({ 'maker_id.name': { _eq: 'Acme' } })).toEqual(['G1', 'g5']);
    expect(await codes({ maker_id: { name: { _eq: 'Acme' } } })).toEqual(['G1', 'g5']);
    expect(await codes({ 'maker_id.country_id.code': { _eq: 'JP' } })).toEqual(['G2']);
    expect(await codes({ maker_id: { country_id: { code: { _in: ['TH', 'JP'] } } } })).toEqual(['G1', 'G2', 'g5']);
    expect(await codes({ 'maker_id.country_id': { _null: true } })).toEqual(['G4']);
    expect(await codes({ _or: [{ 'maker_id.name': { _starts_with: 'G' } }, { code: { _eq: 'G3' } }] })).toEqual(['G3', 'G4']);
  });

  it('sorts by a field, descending, and through a link', async () => {
    const sorted = async (sort: string, filter: unknown) => (await get(`/api/gadget?sort=${sort}&filter=${encodeURIComponent(JSON.stringify(filter))}`)).json().data.map((r: { code: string }) => r.code);
    expect(await sorted('-price', { price: { _nnull: true } })).toEqual(['G3', 'G1', 'G2', 'g5']);
    expect(await sorted('maker_id.name,-code', { maker_id: { _nnull: true } })).toEqual(['g5', 'G1', 'G2', 'G4']);
  });

  it('refuses text operators on numbers and malformed filters', async () => {
    expect(await errorCode(`filter=${encodeURIComponent('{"qty":{"_contains":"1"}}')}`)).toBe('INVALID_FILTER');
    expect(await errorCode(`filter=${encodeURIComponent('{"qty":{"_between":[1]}}')}`)).toBe('INVALID_FILTER');
    expect(await errorCode('filter={not json')).toBe('INVALID_FILTER');
  });

  it('refuses SQL in field names, sort and fields, and the table survives', async () => {
    for (const key of ['code; drop table gadget--', 'code" or 1=1 --', 'maker_id.name) or (1=1']) {
      expect(await errorCode(`filter=${encodeURIComponent(JSON.stringify({ [key]: { _eq: 1 } }))}`)).toBe('UNKNOWN_FIELD');
    }
    for (const sort of ['code;drop table gadget', '-"code"', 'code desc', 'maker_id.name;drop table maker', '(select 1)']) {
      expect(await errorCode(`sort=${encodeURIComponent(sort)}`), sort).toBe('UNKNOWN_FIELD');
    }
    expect(await errorCode(`fields=${encodeURIComponent('code,name from gadget; drop table gadget')}`)).toBe('UNKNOWN_FIELD');
    // values are bound, never spliced into SQL
    expect(await codes({ code: { _eq: "G1' OR '1'='1" } })).toEqual([]);
    expect(await codes({ name: { _icontains: "' OR 1=1 --" } })).toEqual([]);
    expect(await codes({})).toEqual(ALL);
    expect((await get('/api/maker')).json().data).toHaveLength(3);
  });
});

describe.each(testDialects())('filters through links of the real schemas on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(dialect); });
  afterAll(async () => { await t?.close(); });

  it('customer?filter={"price_list_id.name_th": ...} finds the customer of that price list', async () => {
    const customer = t.registry.get('customer')!;
    expect(customer.fields.price_list_id?.entity).toBe('price_list');
    const api = { app: t.app, headers: t.headers };
    const body = await sampleRecord(customer, t.registry, 1, api);
    const created = await t.app.inject({ method: 'POST', url: '/api/customer', headers: t.headers, payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const priceList = (await t.app.inject({ method: 'GET', url: `/api/price_list/${body.price_list_id}`, headers: t.headers })).json().data;
    const find = async (filter: unknown) => (await t.app.inject({
      method: 'GET', url: `/api/customer?filter=${encodeURIComponent(JSON.stringify(filter))}`, headers: t.headers,
    })).json().data.map((r: { id: number }) => r.id);
    expect(await find({ 'price_list_id.name_th': { _eq: priceList.name_th } })).toEqual([created.json().data.id]);
    expect(await find({ price_list_id: { code: { _eq: priceList.code } } })).toEqual([created.json().data.id]);
    expect(await find({ 'price_list_id.name_th': { _eq: `${priceList.name_th} (not this one)` } })).toEqual([]);
    const read = await t.app.inject({ method: 'GET', url: `/api/customer?fields=code,price_list_id.name_th`, headers: t.headers });
    expect(read.json().data).toEqual([{ id: created.json().data.id, code: body.code, 'price_list_id.name_th': priceList.name_th }]);
  });
});
