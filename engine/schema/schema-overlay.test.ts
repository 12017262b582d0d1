import { describe, expect, it } from 'vitest';
import { applyOverrides, hiddenIn, overrideProblem, type SchemaOverride } from './schema-overlay.ts';
import { SchemaRegistry } from './schema-registry.ts';
import type { EntitySchema } from './schema-types.ts';

function customer(): EntitySchema {
  return {
    name: 'customer',
    label: { th: 'ลูกค้า', en: 'Customer' },
    kind: 'master',
    titleField: 'name',
    fields: {
      code: { type: 'string', label: { th: 'รหัส', en: 'Code' }, required: true },
      name: { type: 'string', label: { th: 'ชื่อ', en: 'Name' } },
      note: { type: 'text', label: { th: 'หมายเหตุ', en: 'Note' } },
    },
    list: { columns: ['code', 'name'] },
  };
}

function product(): EntitySchema {
  return { name: 'product', label: { th: 'สินค้า', en: 'Product' }, kind: 'master', titleField: 'name', fields: { name: { type: 'string', label: { th: 'ชื่อ', en: 'Name' } } } };
}

const relabel: SchemaOverride = { entity: 'customer', field: 'name', property: 'label', value: { th: 'ชื่อบริษัท', en: 'Company name' } };

describe('applyOverrides', () => {
  it('overrides a field label, hidden and required', () => {
    const merged = applyOverrides(customer(), [
      relabel,
      { entity: 'customer', field: 'note', property: 'hidden', value: true },
      { entity: 'customer', field: 'name', property: 'required', value: true },
      { entity: 'customer', field: 'code', property: 'required', value: false },
    ]);
    expect(merged.fields.name).toEqual({ type: 'string', label: { th: 'ชื่อบริษัท', en: 'Company name' }, required: true });
    expect(merged.fields.note!.hidden).toBe(true);
    expect(merged.fields.code!.required).toBe(false);
  });

  it('overrides readOnly, default, the entity label, list columns and field order', () => {
    const merged = applyOverrides(customer(), [
      { entity: 'customer', field: 'note', property: 'readOnly', value: true },
      { entity: 'customer', field: 'note', property: 'default', value: '-' },
      { entity: 'customer', field: null, property: 'label', value: { th: 'คู่ค้า', en: 'Client' } },
      { entity: 'customer', field: null, property: 'listColumns', value: ['name', 'gone', 'id'] },
      { entity: 'customer', field: null, property: 'fieldOrder', value: ['note', 'code'] },
    ]);
    expect(merged.fields.note).toMatchObject({ readOnly: true, default: '-' });
    expect(merged.label.en).toBe('Client');
    expect(merged.list!.columns).toEqual(['name', 'id']); // unknown columns are dropped
    expect(Object.keys(merged.fields)).toEqual(['note', 'code', 'name']);
  });

  it('never mutates the file schema', () => {
    const base = customer();
    const snapshot = structuredClone(base);
    const merged = applyOverrides(base, [relabel, { entity: 'customer', field: null, property: 'fieldOrder', value: ['note'] },
      { entity: 'customer', field: 'note', property: 'hidden', value: true }]);
    expect(base).toEqual(snapshot);
    expect(merged).not.toBe(base);
    expect(merged.fields).not.toBe(base.fields);
  });

  it('ignores overrides of other entities and of fields no longer in the file', () => {
    const base = customer();
    expect(applyOverrides(base, [{ entity: 'product', field: 'name', property: 'hidden', value: true }])).toBe(base);
    const merged = applyOverrides(base, [{ entity: 'customer', field: 'removed_field', property: 'hidden', value: true }]);
    expect(merged.fields).toEqual(base.fields);
    expect(merged.fields).not.toHaveProperty('removed_field');
  });
});

describe('page-setting overrides', () => {
  function withServerFields(): EntitySchema {
    const c = customer();
    c.fields.number = { type: 'string', label: { th: 'เลขที่', en: 'Number' }, readOnly: true };
    c.fields.tax = { type: 'string', label: { th: 'ภาษี', en: 'Tax' }, hidden: true };
    return c;
  }

  it('hides a field in the list, the form, both or neither', () => {
    const merged = applyOverrides(withServerFields(), [
      { entity: 'customer', field: 'name', property: 'hidden', value: 'list' },
      { entity: 'customer', field: 'note', property: 'hidden', value: 'form' },
      { entity: 'customer', field: 'code', property: 'hidden', value: 'both' },
      { entity: 'customer', field: 'tax', property: 'hidden', value: 'none' },
    ]);
    expect(hiddenIn(merged.fields.name!)).toBe('list');
    expect(hiddenIn(merged.fields.note!)).toBe('form');
    expect(hiddenIn(merged.fields.code!)).toBe('both');
    expect(hiddenIn(merged.fields.tax!)).toBe('none');
    expect(merged.fields.tax).not.toHaveProperty('hidden');
    // hidden from lists: no longer a default column either
    expect(merged.list!.columns).toEqual([]);
  });

  it('sets column width, default sort, page size and form sections', () => {
    const merged = applyOverrides(customer(), [
      { entity: 'customer', field: 'name', property: 'width', value: 240 },
      { entity: 'customer', field: null, property: 'defaultSort', value: '-name' },
      { entity: 'customer', field: null, property: 'pageSize', value: 100 },
      { entity: 'customer', field: null, property: 'formSections', value: [
        { key: 'main', label: { th: 'หลัก', en: 'Main' }, fields: ['name', 'code'], columns: 1 },
        { key: 'more', label: { th: 'อื่น', en: 'More' }, fields: ['note'] },
      ] },
    ]);
    expect(merged.fields.name!.width).toBe(240);
    expect(merged.defaultSort).toBe('-name');
    expect(merged.list).toEqual({ columns: ['code', 'name'], pageSize: 100 });
    expect(merged.form!.sections.map((s) => [s.key, s.fields])).toEqual([['main', ['name', 'code']], ['more', ['note']]]);
  });

  it('never makes a file read-only field writable, nor lifts required where the engine needs it', () => {
    const base = withServerFields();
    const lift: SchemaOverride = { entity: 'customer', field: 'number', property: 'readOnly', value: false };
    const unrequireTitle: SchemaOverride = { entity: 'customer', field: 'name', property: 'required', value: false };
    base.fields.name!.required = true;
    expect(overrideProblem(base, lift)).toMatch(/read-only/);
    expect(overrideProblem(base, unrequireTitle)).toMatch(/must stay required/);
    const merged = applyOverrides(base, [lift, unrequireTitle, { entity: 'customer', field: 'note', property: 'readOnly', value: true }]);
    expect(merged.fields.number!.readOnly).toBe(true);
    expect(merged.fields.name!.required).toBe(true);
    expect(merged.fields.note!.readOnly).toBe(true);
  });

  it('keeps required the fields a numbering series is split by', () => {
    const base = customer();
    base.numbering = { field: 'code', prefix: 'C', pattern: '{note}-{prefix}{seq:4}', per: ['note'] };
    base.fields.note!.required = true;
    expect(overrideProblem(base, { entity: 'customer', field: 'note', property: 'required', value: false })).toMatch(/must stay required/);
  });

  it('reports unknown fields, properties and bad values', () => {
    const base = customer();
    expect(overrideProblem(base, { entity: 'customer', field: 'nope', property: 'hidden', value: 'list' })).toMatch(/not a field/);
    expect(overrideProblem(base, { entity: 'customer', field: 'name', property: 'type', value: 'integer' } as unknown as SchemaOverride)).toMatch(/cannot be overridden/);
    expect(overrideProblem(base, { entity: 'customer', field: null, property: 'pageSize', value: 0 })).toMatch(/pageSize/);
    expect(overrideProblem(base, { entity: 'customer', field: 'name', property: 'width', value: 12.5 })).toMatch(/width/);
    expect(overrideProblem(base, { entity: 'customer', field: null, property: 'defaultSort', value: '-gone' })).toMatch(/gone/);
    expect(overrideProblem(base, { entity: 'customer', field: null, property: 'formSections', value: [
      { key: 'a', label: { th: 'ก', en: 'A' }, fields: ['name'] }, { key: 'b', label: { th: 'ข', en: 'B' }, fields: ['name'] },
    ] })).toMatch(/two sections/);
    expect(overrideProblem(base, { entity: 'customer', field: 'name', property: 'label', value: { th: '', en: 'x' } })).toMatch(/label/);
    expect(overrideProblem(base, { entity: 'customer', field: 'name', property: 'hidden', value: 'both' })).toBeNull();
  });
});

describe('SchemaRegistry', () => {
  it('serves file schemas before any override', () => {
    const r = new SchemaRegistry([customer(), product()]);
    expect(r.version).toBe(0);
    expect(r.get('customer')).toEqual(customer());
    expect(r.get('nope')).toBeUndefined();
    expect(r.all().map((e) => e.name)).toEqual(['customer', 'product']);
  });

  it('caches the merged view: the same object until the version moves', () => {
    const r = new SchemaRegistry([customer(), product()]);
    r.setOverrides([relabel], 1);
    const first = r.get('customer');
    expect(r.get('customer')).toBe(first);
    expect(first!.fields.name!.label.en).toBe('Company name');
  });

  it('rebuilds when the version is bumped', () => {
    const r = new SchemaRegistry([customer()]);
    r.setOverrides([relabel], 1);
    const v1 = r.get('customer');
    r.setOverrides([{ entity: 'customer', field: 'name', property: 'hidden', value: true }], 2);
    expect(r.version).toBe(2);
    const v2 = r.get('customer')!;
    expect(v2).not.toBe(v1);
    expect(v2.fields.name!.hidden).toBe(true);
    expect(v2.fields.name!.label.en).toBe('Name'); // overrides are replaced, not accumulated
  });

  it('ignores an older or equal version', () => {
    const r = new SchemaRegistry([customer()]);
    r.setOverrides([relabel], 5);
    const cached = r.get('customer');
    r.setOverrides([{ entity: 'customer', field: 'name', property: 'hidden', value: true }], 4);
    r.setOverrides([{ entity: 'customer', field: 'name', property: 'hidden', value: true }], 5);
    expect(r.version).toBe(5);
    expect(r.get('customer')).toBe(cached);
    expect(r.get('customer')!.fields.name!.hidden).toBeUndefined();
  });

  it('keeps the file schema unchanged for sync', () => {
    const r = new SchemaRegistry([customer()]);
    r.setOverrides([relabel, { entity: 'customer', field: 'code', property: 'required', value: false }], 1);
    expect(r.fileSchema('customer')).toEqual(customer());
    expect(r.fileSchemas()).toEqual([customer()]);
    expect(r.get('customer')!.fields.code!.required).toBe(false);
  });
});

describe('SchemaRegistry change events', () => {
  it('tells listeners the new version and which entities changed, until they unsubscribe', () => {
    const r = new SchemaRegistry([customer(), product()]);
    const seen: Array<{ version: number; entities: string[] }> = [];
    const stop = r.onChange((c) => seen.push(c));
    r.setOverrides([relabel], 1);
    r.setOverrides([relabel, { entity: 'product', field: 'name', property: 'width', value: 120 }], 2);
    r.setOverrides([relabel], 2); // not newer: nothing
    stop();
    r.setOverrides([], 3);
    expect(seen).toEqual([{ version: 1, entities: ['customer'] }, { version: 2, entities: ['product'] }]);
  });
});
