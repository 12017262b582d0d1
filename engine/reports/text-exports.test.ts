/** `textExports`: a report file may offer only known layouts, and only with the parameters the layout needs. */
import { describe, expect, it } from 'vitest';
import { loadReportSet } from './report-loader.ts';
import { SchemaLoadError } from '../schema/schema-loader.ts';
import type { EntitySchema } from '../schema/schema-types.ts';

const label = { th: 'ท', en: 'e' };
const w = { name: 'w', label, kind: 'document', titleField: 'doc_no', fields: { doc_no: { type: 'string', label } } } as unknown as EntitySchema;
const FORM = { name: 'pnd_form', type: 'enum', label, required: true, options: [{ value: 'pnd3', label }, { value: 'pnd53', label }] };
const report = (textExports: unknown, parameters: unknown[] = [FORM]) => ({
  name: 'r_text', label, menuGroup: 'tax_reports', parameters, source: { from: 'w', as: 'w' },
  columns: [{ key: 'doc_no', label, type: 'string', expr: 'w.doc_no' }], textExports,
});
const problems = (r: unknown): string[] => {
  try { loadReportSet([{ file: 'reports/r_text.json', text: JSON.stringify(r) }], (n) => (n === 'w' ? w : undefined)); } catch (err) {
    return (err as SchemaLoadError).problems.map((p) => `${p.pointer}: ${p.reason}`);
  }
  return [];
};

describe('report textExports', () => {
  it('accepts rd_prep with a required pnd_form of pnd3/pnd53', () => {
    expect(problems(report([{ format: 'rd_prep', label }]))).toEqual([]);
  });
  it('refuses an unknown format, and rd_prep without its parameter', () => {
    expect(problems(report([{ format: 'fixed_width', label }]))).toEqual(['/textExports/0/format: unknown text export "fixed_width" (known: rd_prep)']);
    expect(problems(report([{ format: 'rd_prep', label }], []))).toEqual(['/textExports/0/format: "rd_prep" needs a required parameter "pnd_form" of pnd3, pnd53']);
    expect(problems(report([{ format: 'rd_prep', label }], [{ ...FORM, options: [{ value: 'pnd1a', label }] }]))).toHaveLength(1);
  });
});
