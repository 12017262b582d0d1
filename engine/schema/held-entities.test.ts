import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from './schema-registry.ts';
import type { EntitySchema } from './schema-types.ts';

const label = { th: 'x', en: 'x' };
const entity = (name: string, extra: Partial<EntitySchema> = {}): EntitySchema =>
  ({ name, label, kind: 'master', titleField: 'code', fields: { code: { type: 'string', label } }, ...extra }) as EntitySchema;

describe('the entities a feature holds (schema key holds)', () => {
  const ledger = entity('moves', {
    kind: 'ledger', holds: 'stockMovements',
    fields: { code: { type: 'string', label }, product_id: { type: 'link', entity: 'goods', label }, inventory_id: { type: 'link', entity: 'stores', label }, product_location_id: { type: 'link', entity: 'bins', label } },
  });
  const registry = new SchemaRegistry([ledger, entity('goods'), entity('stores'), entity('bins'), entity('settings', { kind: 'singleton', siteSettings: true })]);

  it('are found by the key and their links, whatever they are called', () => {
    expect(registry.held('stockMovements')).toBe('moves');
    expect(registry.holder('stockMovements')?.kind).toBe('ledger');
    expect(registry.heldLink('stockMovements', 'product_id')).toBe('goods');
    expect(registry.heldLink('stockMovements', 'inventory_id')).toBe('stores');
    expect(registry.siteSettings()?.name).toBe('settings');
  });

  it('answer a clear error naming the key when no schema declares it, and nothing where that is allowed', () => {
    expect(registry.holder('alerts')).toBeUndefined();
    expect(() => registry.held('alerts')).toThrow(/No schema declares "holds": "alerts"/);
    expect(() => registry.heldLink('stockMovements', 'code')).toThrow(/moves\.code is not a link field/);
    expect(new SchemaRegistry([entity('goods')]).siteSettings()).toBeUndefined();
  });

  it('are read as merged: a runtime override of the holder shows', () => {
    const r = new SchemaRegistry([ledger, entity('goods'), entity('stores'), entity('bins')]);
    r.setOverrides([{ entity: 'moves', field: null, property: 'label', value: { th: 'ย้าย', en: 'Moves' } }], 1);
    expect(r.holder('stockMovements')?.label.en).toBe('Moves');
  });
});
