import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSchemaSet, SchemaLoadError, type SchemaProblem, type SchemaSource } from './schema-loader.ts';
import { readSchemaDir } from '../../server/schema-files.ts';

type Json = Record<string, any>;

/** The smallest entity the meta-schema accepts. */
function minimal(name = 'thing'): Json {
  return {
    name,
    label: { th: 'สิ่งของ', en: 'Thing' },
    kind: 'master',
    titleField: 'title',
    fields: { title: { type: 'string', label: { th: 'ชื่อ', en: 'Title' } } },
  };
}

function source(file: string, value: Json | string): SchemaSource {
  return { file, text: typeof value === 'string' ? value : JSON.stringify(value) };
}

function problemsOf(sources: SchemaSource[]): SchemaProblem[] {
  try {
    loadSchemaSet(sources);
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaLoadError);
    return (err as SchemaLoadError).problems;
  }
  throw new Error('expected the schema set to be rejected');
}

/** Loads one broken file (plus valid neighbours) and expects a problem at `pointer` whose reason matches. */
function expectProblem(sources: SchemaSource[], file: string, pointer: string, reason: RegExp): void {
  const problems = problemsOf(sources);
  expect(problems, JSON.stringify(problems, null, 1)).toContainEqual({ file, pointer, reason: expect.stringMatching(reason) });
}

describe('loadSchemaSet', () => {
  it('loads a valid minimal entity unchanged', () => {
    const [e] = loadSchemaSet([source('thing.json', minimal())]);
    expect(e).toEqual(minimal());
  });

  it('accepts a file name given with a folder', () => {
    expect(loadSchemaSet([source('schemas/sub/thing.json', minimal())])).toHaveLength(1);
  });

  it('rejects a file that is not JSON, naming the file', () => {
    expectProblem([source('thing.json', '{"name": "thing",')], 'thing.json', '', /^not valid JSON/);
  });

  it('rejects an unknown top-level property', () => {
    expectProblem([source('thing.json', { ...minimal(), colour: 'red' })], 'thing.json', '', /unknown property "colour"/);
  });

  it('rejects an unknown property inside a field, pointing at the field', () => {
    const e = minimal();
    e.fields.title.size = 10;
    expectProblem([source('thing.json', e)], 'thing.json', '/fields/title', /unknown property "size"/);
  });

  it('rejects a bad field type, listing the allowed ones', () => {
    const e = minimal();
    e.fields.title.type = 'varchar';
    expectProblem([source('thing.json', e)], 'thing.json', '/fields/title/type', /allowed values.*string.*tax_id/);
  });

  it('rejects an enum without options', () => {
    const e = minimal();
    e.fields.status = { type: 'enum', label: { th: 'สถานะ', en: 'Status' } };
    expectProblem([source('thing.json', e)], 'thing.json', '/fields/status', /options/);
  });

  it('rejects a link to an unknown entity', () => {
    const e = minimal();
    e.fields.owner_id = { type: 'link', entity: 'nobody', label: { th: 'เจ้าของ', en: 'Owner' } };
    expectProblem([source('thing.json', e)], 'thing.json', '/fields/owner_id/entity', /unknown entity "nobody"/);
  });

  it('accepts a link to an entity defined in another file', () => {
    const e = minimal();
    e.fields.owner_id = { type: 'link', entity: 'owner', label: { th: 'เจ้าของ', en: 'Owner' } };
    expect(loadSchemaSet([source('thing.json', e), source('owner.json', minimal('owner'))])).toHaveLength(2);
  });

  it('rejects a titleField that is not a field', () => {
    expectProblem([source('thing.json', { ...minimal(), titleField: 'name' })], 'thing.json', '/titleField', /"name" is not a field/);
  });

  it('rejects a name that does not match the file name', () => {
    expectProblem([source('schemas/thing.json', minimal('other'))], 'schemas/thing.json', '/name', /must match the file name "thing"/);
  });

  it.each(['id', 'created_at', 'updated_by', 'is_deleted', 'line_no'])('rejects a declared system column "%s"', (sys) => {
    const e = minimal();
    e.fields[sys] = { type: 'integer', label: { th: 'x', en: 'x' } };
    expectProblem([source('thing.json', e)], 'thing.json', `/fields/${sys}`, /system column/);
  });

  it('rejects a lines entity without a parent', () => {
    expectProblem([source('thing.json', { ...minimal(), kind: 'lines' })], 'thing.json', '/parent', /needs a parent/);
  });

  it('rejects document.etax naming fields the document does not have, or an unknown type code', () => {
    const dir = resolve(import.meta.dirname, '../../schemas');
    const sources = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => source(f, JSON.parse(readFileSync(resolve(dir, f), 'utf8'))));
    const swap = (file: string, etax: Json) => sources.map((s) => (s.file === file ? source(file, { ...JSON.parse(s.text), document: { ...JSON.parse(s.text).document, etax } }) : s));
    expect(() => loadSchemaSet(sources)).not.toThrow();
    expectProblem(swap('credit_note.json', { typeCode: '81', purposeField: 'no_such_field' }), 'credit_note.json', '/document/etax/purposeField', /not a field/);
    expectProblem(swap('tax_invoice.json', { typeCode: '388', notWhen: { kind_of_invoice: ['abbreviated'] } }), 'tax_invoice.json', '/document/etax/notWhen/kind_of_invoice', /not a field/);
    expect(problemsOf(swap('receipt.json', { typeCode: '381' })).some((p) => p.file === 'receipt.json' && p.pointer.startsWith('/document/etax'))).toBe(true);
  });

  it('rejects document.taxInvoice keys naming fields the document does not have (issue 46 §2)', () => {
    const dir = resolve(import.meta.dirname, '../../schemas');
    const sources = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => source(f, JSON.parse(readFileSync(resolve(dir, f), 'utf8'))));
    const swap = (file: string, taxInvoice: Json) => sources.map((s) => (s.file === file ? source(file, { ...JSON.parse(s.text), document: { ...JSON.parse(s.text).document, taxInvoice } }) : s));
    expectProblem(swap('tax_invoice.json', { formField: 'doc_no' }), 'tax_invoice.json', '/document/taxInvoice/formField', /enum field/);
    expectProblem(swap('tax_invoice.json', { shipTo: { name: 'ship_to_name', address: 'nowhere' } }), 'tax_invoice.json', '/document/taxInvoice/shipTo/address', /not a field/);
    expectProblem(swap('tax_invoice.json', { shipTo: { name: 'ship_to_name' } }), 'tax_invoice.json', '/document/taxInvoice/shipTo', /address/);
  });

  it('accepts print.limitByRole on a document and rejects it elsewhere or with an unknown key', () => {
    const doc = { ...minimal('bill'), kind: 'document', print: { limitByRole: true } };
    expect(loadSchemaSet([source('bill.json', doc)])[0]).toMatchObject({ print: { limitByRole: true } });
    expectProblem([source('thing.json', { ...minimal(), print: { limitByRole: true } })], 'thing.json', '/print', /document/);
    expect(problemsOf([source('bill.json', { ...doc, print: { copies: 2 } })]).length).toBeGreaterThan(0);
  });

  it('rejects a visibleIf that names an unknown field', () => {
    const e = minimal();
    e.fields.note = { type: 'text', label: { th: 'หมายเหตุ', en: 'Note' }, visibleIf: { colour: { _eq: 'red' } } };
    expectProblem([source('thing.json', e)], 'thing.json', '/fields/note/visibleIf', /"colour" is not a field of thing/);
  });

  it('rejects a requiredIf with an unknown operator', () => {
    const e = minimal();
    e.fields.note = { type: 'text', label: { th: 'หมายเหตุ', en: 'Note' }, requiredIf: { title: { _like: 'x' } } };
    expectProblem([source('thing.json', e)], 'thing.json', '/fields/note/requiredIf', /unknown operator "_like"/);
  });

  it('reports every problem of every file in one error', () => {
    const broken = minimal('broken');
    broken.fields.title.type = 'varchar';
    const problems = problemsOf([
      source('a.json', '{'),
      source('broken.json', broken),
      source('thing.json', { ...minimal(), titleField: 'nope' }),
    ]);
    expect(new Set(problems.map((p) => p.file))).toEqual(new Set(['a.json', 'broken.json', 'thing.json']));
    const err = (() => { try { loadSchemaSet([source('thing.json', { ...minimal(), titleField: 'nope' })]); } catch (e) { return e as Error; } })();
    expect(err?.message).toContain('thing.json /titleField: "nope" is not a field');
  });

  it('rejects the same entity defined twice', () => {
    expectProblem([source('thing.json', minimal()), source('x/thing.json', minimal())], 'x/thing.json', '/name', /defined twice/);
  });

  it('takes `holds` from one entity per value, with the links the engine finds its neighbours by (issue 46 §2)', () => {
    const alerts = { ...minimal('alerts'), holds: 'alerts' };
    expect(loadSchemaSet([source('alerts.json', alerts)])[0]).toMatchObject({ holds: 'alerts' });
    expectProblem([source('alerts.json', alerts), source('more.json', { ...minimal('more'), holds: 'alerts' })], 'more.json', '/holds', /only one entity holds "alerts" \("alerts" does\)/);
    expectProblem([source('thing.json', { ...minimal(), holds: 'whatever' })], 'thing.json', '/holds', /allowed values/);
    // the pack barcodes link to their products through product_id: without it the products could not be found
    expectProblem([source('packs.json', { ...minimal('packs'), holds: 'packBarcodes' })], 'packs.json', '/holds', /has a link field "product_id"/);
    const packs = minimal('packs');
    packs.holds = 'packBarcodes';
    packs.fields.product_id = { type: 'link', entity: 'goods', label: { th: 'สินค้า', en: 'Product' } };
    expect(loadSchemaSet([source('packs.json', packs), source('goods.json', minimal('goods'))])).toHaveLength(2);
  });
});

describe('the real schemas/ folder', () => {
  const dir = resolve(import.meta.dirname, '../../schemas');

  it('loads every file without a problem', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    let entities: ReturnType<typeof readSchemaDir> = [];
    try {
      entities = readSchemaDir(dir);
    } catch (err) {
      // show every problem, not just "threw"
      throw new Error(err instanceof SchemaLoadError ? err.message : String(err));
    }
    expect(entities.map((e) => `${e.name}.json`).sort()).toEqual(files.sort());
  });
});

describe('linkFilter cross-checks', () => {
  const company = () => ({ ...minimal('co'), fields: { title: { type: 'string', label: { th: 'ชื่อ', en: 'Title' } } } });
  const contact = () => ({ ...minimal('person'), fields: { title: { type: 'string', label: { th: 'ชื่อ', en: 'Title' } }, co_id: { type: 'link', entity: 'co', label: { th: 'บริษัท', en: 'Company' } } } });
  const deal = (linkFilter: Json) => ({
    ...minimal('deal'),
    fields: {
      title: { type: 'string', label: { th: 'ชื่อ', en: 'Title' } },
      co_id: { type: 'link', entity: 'co', label: { th: 'บริษัท', en: 'Company' } },
      note: { type: 'string', label: { th: 'หมายเหตุ', en: 'Note' } },
      person_id: { type: 'link', entity: 'person', label: { th: 'ผู้ติดต่อ', en: 'Contact' }, linkFilter },
    },
  });
  const set = (lf: Json) => [source('co.json', company()), source('person.json', contact()), source('deal.json', deal(lf))];

  it('accepts a filter by another field of the form', () => {
    expect(loadSchemaSet(set({ co_id: '$form.co_id' })).find((e) => e.name === 'deal')!.fields.person_id!.linkFilter).toEqual({ co_id: '$form.co_id' });
  });
  it('names a key that is not a field of the target', () => {
    expectProblem(set({ nope: '$form.co_id' }), 'deal.json', '/fields/person_id/linkFilter/nope', /not a field of person/);
  });
  it('names a source that is not a field of the form', () => {
    expectProblem(set({ co_id: '$form.nope' }), 'deal.json', '/fields/person_id/linkFilter/co_id', /"nope" is not a field of deal/);
  });
  it('refuses comparing a link with a plain value', () => {
    expectProblem(set({ co_id: '$form.note' }), 'deal.json', '/fields/person_id/linkFilter/co_id', /both be links/);
  });
  it('refuses a reference not written "$form.<field>" (or "$parent.<field>" on a line)', () => {
    expectProblem(set({ co_id: '$other.co_id' }), 'deal.json', '/fields/person_id/linkFilter/co_id', /\$form/);
  });
  it('takes "$parent.<field>" on lines only, naming a field of the parent that links where the key does', () => {
    expectProblem(set({ co_id: '$parent.co_id' }), 'deal.json', '/fields/person_id/linkFilter/co_id', /for lines only/);
    const line = (lf: Json) => source('deal_line.json', { ...minimal('deal_line'), kind: 'lines', parent: { entity: 'deal', field: 'deal_id' }, fields: { title: { type: 'string', label: { th: 'ชื่อ', en: 'Title' } }, person_id: { type: 'link', entity: 'person', label: { th: 'ผู้ติดต่อ', en: 'Contact' }, linkFilter: lf } } });
    const withLine = (lf: Json) => [...set({ co_id: '$form.co_id' }), line(lf)];
    expect(loadSchemaSet(withLine({ co_id: '$parent.co_id' })).find((e) => e.name === 'deal_line')!.fields.person_id!.linkFilter).toEqual({ co_id: '$parent.co_id' });
    expectProblem(withLine({ co_id: '$parent.nope' }), 'deal_line.json', '/fields/person_id/linkFilter/co_id', /"nope" is not a field of deal/);
    expectProblem(withLine({ co_id: '$parent.note' }), 'deal_line.json', '/fields/person_id/linkFilter/co_id', /links to co/);
  });
  it('takes a list of constants ("any of them") on a value field, never references nor on a link', () => {
    expect(loadSchemaSet(set({ title: ['a', 'b'] })).find((e) => e.name === 'deal')!.fields.person_id!.linkFilter).toEqual({ title: ['a', 'b'] });
    expectProblem(set({ title: ['a', '$form.note'] }), 'deal.json', '/fields/person_id/linkFilter/title', /constants, not references/);
    expectProblem(set({ co_id: [1, 2] }), 'deal.json', '/fields/person_id/linkFilter/co_id', /value fields, not links/);
  });
});

describe('numbering keys', () => {
  const label = { th: 'ช่อง', en: 'Field' };
  /** A company with a code, and a document numbered from it. */
  const set = (numbering: Json, fields: Json = {}): SchemaSource[] => [
    source('firm.json', { ...minimal('firm'), fields: { title: { type: 'string', label }, code: { type: 'string', label } } }),
    source('paper.json', {
      ...minimal('paper'), kind: 'document',
      fields: { title: { type: 'string', label }, no: { type: 'string', label, unique: true }, day: { type: 'date', label }, firm_id: { type: 'link', entity: 'firm', label }, ...fields },
      numbering: { field: 'no', prefix: 'P', pattern: '{firm_id.code}-{prefix}{seq:4}', ...numbering },
    }),
  ];
  it('accepts a series per company whose numbers name it, dated by a date field', () => {
    expect(loadSchemaSet(set({ per: ['firm_id'], dateField: 'day', dateRule: 'issue', assignOn: 'post' })).find((e) => e.name === 'paper')!.numbering).toMatchObject({ per: ['firm_id'], dateRule: 'issue' });
  });
  it('refuses unique numbers split per a field the pattern does not name', () => {
    expectProblem(set({ per: ['firm_id'], pattern: '{prefix}{seq:4}' }), 'paper.json', '/numbering/per/0', /pattern must name "firm_id"/);
  });
  it('refuses field tokens and keys that name no field', () => {
    expectProblem(set({ pattern: '{firm_id.name}-{seq:4}' }), 'paper.json', '/numbering/pattern', /not a link to a record with a field "name"/);
    expectProblem(set({ pattern: '{branch}-{seq:4}' }), 'paper.json', '/numbering/pattern', /"branch" is not a field/);
    expectProblem(set({ per: ['branch'] }), 'paper.json', '/numbering/per/0', /not a field/);
    expectProblem(set({ dateField: 'title' }), 'paper.json', '/numbering/dateField', /not a date field/);
  });
  it('refuses a date rule without a date field or without numbering on posting', () => {
    expectProblem(set({ dateRule: 'issue', dateField: 'day' }), 'paper.json', '/numbering/dateRule', /assignOn/);
    expectProblem(set({ dateRule: 'issue', assignOn: 'post' }), 'paper.json', '/numbering/dateRule', /dateField/);
    expectProblem(set({ dateRule: 'someday' }), 'paper.json', '/numbering/dateRule', /./);
  });
});
