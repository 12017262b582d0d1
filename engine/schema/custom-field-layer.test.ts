import { describe, expect, it } from 'vitest';
import type { EntitySchema } from './schema-types.ts';
import { applyCustomFields, CUSTOM_SECTION_KEY } from './custom-field-layer.ts';
import { SchemaRegistry } from './schema-registry.ts';

const base: EntitySchema = {
  name: 'thing', label: { th: 'ของ', en: 'Thing' }, kind: 'master', titleField: 'code', searchFields: ['code'],
  fields: { code: { type: 'string', label: { th: 'รหัส', en: 'Code' } } },
  list: { columns: ['code'], filters: ['code'] },
  form: { sections: [{ key: 'main', label: { th: 'หลัก', en: 'Main' }, fields: ['code'] }] },
};
const text = { entity: 'thing', name: 'cf_note', field: { type: 'text' as const, label: { th: 'บันทึก', en: 'Note' }, searchable: true } };
const tier = { entity: 'thing', name: 'cf_tier', field: { type: 'integer' as const, label: { th: 'ระดับ', en: 'Tier' } } };

describe('custom field layer', () => {
  it('appends the fields, a form section, filters (not for long text) and text search', () => {
    const merged = applyCustomFields(base, [text, tier, { ...tier, entity: 'other', name: 'cf_x' }]);
    expect(Object.keys(merged.fields)).toEqual(['code', 'cf_note', 'cf_tier']);
    expect(merged.form!.sections.map((s) => [s.key, s.fields])).toEqual([['main', ['code']], [CUSTOM_SECTION_KEY, ['cf_note', 'cf_tier']]]);
    expect(merged.list!.filters).toEqual(['code', 'cf_tier']);
    expect(merged.searchFields).toEqual(['code', 'cf_note']);
    // the file schema is not touched
    expect(Object.keys(base.fields)).toEqual(['code']);
    expect(base.form!.sections).toHaveLength(1);
  });

  it('never replaces a field of the file, and returns the same object without custom fields', () => {
    expect(applyCustomFields(base, [])).toBe(base);
    expect(applyCustomFields(base, [{ entity: 'thing', name: 'code', field: tier.field }]).fields.code!.type).toBe('string');
  });

  it('lies under the overrides in the registry, and moves with their version', () => {
    const registry = new SchemaRegistry([base]);
    registry.setCustomFields([tier]);
    registry.setOverrides([{ entity: 'thing', field: 'cf_tier', property: 'label', value: { th: 'ชั้น', en: 'Level' } }], 1);
    expect(registry.get('thing')!.fields.cf_tier!.label.en).toBe('Level');
    expect(registry.fileSchema('thing')!.fields.cf_tier).toBeUndefined();
    const changes: string[][] = [];
    registry.onChange((c) => changes.push(c.entities));
    registry.setCustomFields([]);
    registry.setOverrides([{ entity: 'thing', field: 'cf_tier', property: 'label', value: { th: 'ชั้น', en: 'Level' } }], 2);
    expect(registry.get('thing')!.fields.cf_tier).toBeUndefined();
    // the schema-changed event names the entity whose custom fields changed, though its overrides did not
    expect(changes).toEqual([['thing']]);
  });
});
