/** Schema key defaultFrom "company" (issue 31 §9): the loader accepts it only on a link to the company entity, with a site setting for its default. */
import { describe, expect, it } from 'vitest';
import { loadSchemaSet, SchemaLoadError, type SchemaSource } from './schema-loader.ts';

type Json = Record<string, any>;
const label = { th: 'ป้าย', en: 'Label' };
const company: Json = { name: 'your_company', label, kind: 'master', titleField: 'name', fields: { name: { type: 'string', label } }, access: { companyField: 'id' } };
const other: Json = { name: 'team', label, kind: 'master', titleField: 'name', fields: { name: { type: 'string', label } } };
const site = (fields: Json): Json => ({ name: 'setting_site', label, kind: 'singleton', siteSettings: true, titleField: 'stylesheet', fields: { stylesheet: { type: 'string', label }, ...fields } });
const order = (target: string): Json => ({
  name: 'order', label, kind: 'master', titleField: 'ref',
  fields: { ref: { type: 'string', label }, your_company_id: { type: 'link', entity: target, label, required: true, defaultFrom: 'company' } },
});
const load = (...entities: Json[]) => loadSchemaSet(entities.map((e): SchemaSource => ({ file: `${e.name}.json`, text: JSON.stringify(e) })));
const problems = (...entities: Json[]) => {
  try { load(...entities); } catch (err) { return (err as SchemaLoadError).problems.map((p) => `${p.pointer}: ${p.reason}`); }
  return [];
};

describe('defaultFrom "company"', () => {
  it('loads on a link to the company entity when the site settings link to it', () => {
    expect(load(company, other, order('your_company'), site({ default_company_id: { type: 'link', entity: 'your_company', label } }))).toHaveLength(4);
  });
  it('is refused on a link to another entity, or without a default-company setting', () => {
    expect(problems(company, other, order('team'), site({ default_company_id: { type: 'link', entity: 'your_company', label } })))
      .toEqual([expect.stringMatching(/defaultFrom: must be on a link to the company entity/)]);
    expect(problems(company, other, order('your_company'), site({}))).toEqual([expect.stringMatching(/defaultFrom: setting_site has no link field to your_company/)]);
    expect(problems(company, { ...order('your_company'), fields: { ref: { type: 'string', label }, your_company_id: { type: 'link', entity: 'your_company', label, defaultFrom: 'branch' } } }).length).toBeGreaterThan(0);
  });
});

describe('the site settings key (siteSettings)', () => {
  const setting = { default_company_id: { type: 'link', entity: 'your_company', label } };
  it('finds the site settings by the key, whatever the entity is called', () => {
    const renamed = { ...site(setting), name: 'shop_settings' };
    expect(load(company, order('your_company'), renamed)).toHaveLength(3);
    // without the key, a singleton of that name is not the site settings: nothing is checked against it
    const plain = { ...site({}), siteSettings: undefined };
    expect(load(company, order('your_company'), plain)).toHaveLength(3);
    expect(problems(company, order('your_company'), { ...site({}), name: 'shop_settings' })).toEqual([expect.stringMatching(/shop_settings has no link field to your_company/)]);
  });
  it('is refused on a second entity or on one that is not a singleton', () => {
    expect(problems(company, site(setting), { ...site(setting), name: 'more_settings' })).toEqual([expect.stringMatching(/siteSettings: only one entity holds the site settings/)]);
    expect(problems(company, { ...other, siteSettings: true })).toEqual([expect.stringMatching(/siteSettings: only an entity of kind "singleton"/)]);
  });
});
