/**
 * `union` (a report of several row sets: tax invoices, then credit notes, then debit notes): each
 * part must give a value for every column of the report and name only its own tables; the loader
 * says which part and which column is wrong, as for every other report mistake.
 */
import { describe, expect, it } from 'vitest';
import { loadReportSet } from './report-loader.ts';
import { SchemaLoadError } from '../schema/schema-loader.ts';
import type { EntitySchema } from '../schema/schema-types.ts';

const label = { th: 'ท', en: 'e' };
const entity = (name: string): EntitySchema => ({ name, label, kind: 'document', titleField: 'doc_no', fields: { doc_no: { type: 'string', label }, total: { type: 'money', label } } } as unknown as EntitySchema);
const entities: Record<string, EntitySchema> = { inv: entity('inv'), note: entity('note') };
const report = (union: unknown) => ({
  name: 'r_union', label, menuGroup: 'tax_reports', parameters: [],
  source: { from: 'inv', as: 'i' },
  columns: [{ key: 'doc_no', label, type: 'string', expr: 'i.doc_no' }, { key: 'total', label, type: 'money', expr: 'i.total' }],
  union,
});
const load = (r: unknown) => loadReportSet([{ file: 'reports/r_union.json', text: JSON.stringify(r) }], (n) => entities[n]);
const problems = (r: unknown): string[] => {
  try { load(r); } catch (err) { return (err as SchemaLoadError).problems.map((p) => `${p.pointer}: ${p.reason}`); }
  return [];
};

describe('report union parts', () => {
  it('loads a part that gives every column from its own source', () => {
    expect(load(report([{ source: { from: 'note', as: 'n' }, values: { doc_no: 'n.doc_no', total: { neg: 'n.total' } } }]))).toHaveLength(1);
  });

  it('names a missing column, an unknown one and an alias of the main source', () => {
    expect(problems(report([{ source: { from: 'note', as: 'n' }, values: { doc_no: 'i.doc_no', extra: 'n.total' } }]))).toEqual([
      '/union/0/values/extra: "extra" is not a column of the report',
      '/union/0/values/doc_no: "i" is not a table alias of this report',
      '/union/0/values: gives no value for the column "total"',
    ]);
  });

  it('refuses a part without values (meta-schema)', () => {
    expect(problems(report([{ source: { from: 'note', as: 'n' } }])).join('\n')).toMatch(/\/union\/0.*values/);
  });
});
