/** Small entities for the filter tests: item -> maker -> country, plus a lines field. */
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { FieldResolver } from '../../engine/filter/filter-parser.ts';

const l = (en: string) => ({ th: en, en });

export const country: EntitySchema = {
  name: 'country', label: l('Country'), kind: 'master', titleField: 'code',
  fields: { code: { type: 'string', label: l('Code') } },
};

export const maker: EntitySchema = {
  name: 'maker', label: l('Maker'), kind: 'master', titleField: 'name',
  fields: {
    name: { type: 'string', label: l('Name') },
    country_id: { type: 'link', entity: 'country', label: l('Country') },
  },
};

export const item: EntitySchema = {
  name: 'item', label: l('Item'), kind: 'master', titleField: 'code',
  fields: {
    code: { type: 'string', label: l('Code') },
    name_th: { type: 'string', label: l('Name') },
    qty: { type: 'integer', label: l('Qty') },
    price: { type: 'money', label: l('Price') },
    active: { type: 'boolean', label: l('Active') },
    made_on: { type: 'date', label: l('Made on') },
    status: { type: 'enum', label: l('Status'), options: [{ value: 'new', label: l('New') }, { value: 'old', label: l('Old') }] },
    extra: { type: 'json', label: l('Extra') },
    maker_id: { type: 'link', entity: 'maker', label: l('Maker') },
    parts: { type: 'lines', entity: 'item_part', label: l('Parts') },
  },
};

export const itemPart: EntitySchema = {
  name: 'item_part', label: l('Part'), kind: 'lines', titleField: 'name', parent: { entity: 'item', field: 'item_id' },
  fields: { name: { type: 'string', label: l('Name') } },
};

const all = new Map([country, maker, item, itemPart].map((e) => [e.name, e]));
export const resolver: FieldResolver = { entity: (n) => all.get(n) };
