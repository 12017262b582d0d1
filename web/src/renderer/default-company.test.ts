// @vitest-environment happy-dom
/** Issue 31 §9 in the form: an issuing company left empty is left to the server (schema key defaultFrom). */
import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { defaultValues, valuesToBody } from './form-model.ts';
import { validatorFor } from './entity-resolver.ts';

const order: EntitySchema = {
  name: 'dc_order', label: { th: 'ใบสั่ง', en: 'Order' }, kind: 'document', titleField: 'ref',
  fields: {
    ref: { type: 'string', label: { th: 'อ้างอิง', en: 'Ref' }, required: true },
    your_company_id: { type: 'link', entity: 'your_company', label: { th: 'บริษัท', en: 'Company' }, required: true, defaultFrom: 'company' },
  },
};
const resolve = (n: string) => (n === order.name ? order : undefined);

describe('a defaultFrom company in the form', () => {
  it('is left out of a new record\'s body when empty, and the create validator accepts that', () => {
    const body = valuesToBody(order, { ...defaultValues(order), ref: 'A-1' }, resolve);
    expect(body).toEqual({ ref: 'A-1' });
    expect(validatorFor(order, 'create', resolve)(body)).toEqual([]);
    // chosen, it is sent; an edit (replace) still needs it
    expect(valuesToBody(order, { ref: 'A-1', your_company_id: 3 }, resolve)).toEqual({ ref: 'A-1', your_company_id: 3 });
    expect(validatorFor(order, 'replace', resolve)(body).map((e) => `${e.field}:${e.code}`)).toEqual(['your_company_id:required']);
  });
});
