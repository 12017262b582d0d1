import { describe, expect, it } from 'vitest';
import { isAggregate, loadReportSet } from './report-loader.ts';
import { SchemaLoadError } from '../schema/schema-loader.ts';
import type { EntitySchema } from '../schema/schema-types.ts';

const product = { name: 'product', label: { th: 'สินค้า', en: 'Product' }, kind: 'master', titleField: 'code', fields: { code: { type: 'string', label: { th: 'รหัส', en: 'Code' } }, product_class: { type: 'enum', label: { th: 'ประเภท', en: 'Class' }, options: [{ value: 'asset', label: { th: 'ทรัพย์สิน', en: 'Asset' } }] }, qty: { type: 'decimal', scale: 4, label: { th: 'จำนวน', en: 'Qty' } } } } as unknown as EntitySchema;
const entity = (n: string) => (n === 'product' ? product : undefined);
const base = {
  name: 'r1', label: { th: 'ร', en: 'R' }, menuGroup: 'stock_reports', parameters: [{ name: 'date_from', type: 'date', label: { th: 'จาก', en: 'From' } }],
  source: { from: 'product', as: 'p' },
  columns: [{ key: 'code', label: { th: 'รหัส', en: 'Code' }, type: 'string', expr: 'p.code' }, { key: 'qty', label: { th: 'จำนวน', en: 'Qty' }, type: 'qty', expr: { sum: 'p.qty' } }],
  totals: ['qty'],
};
const load = (r: unknown, file = 'reports/r1.json') => loadReportSet([{ file, text: JSON.stringify(r) }], entity);
const problems = (r: unknown, file?: string) => {
  try { load(r, file); } catch (err) { if (err instanceof SchemaLoadError) return err.problems; throw err; }
  return [];
};

describe('report files', () => {
  it('checks that the operator names a link parameter', () => {
    const link = { name: 'company', type: 'link', entity: 'product', label: { th: 'บริษัท', en: 'Company' } };
    expect(problems({ ...base, operator: 'company', parameters: [...base.parameters, link] })).toEqual([]);
    expect(problems({ ...base, operator: 'date_from' }).map((p) => p.pointer)).toContain('/operator');
    expect(problems({ ...base, operator: 'nothing' }).map((p) => p.pointer)).toContain('/operator');
  });

  it('checks that a link names columns as {key} and parameters as {$name}', () => {
    const linked = (link: string) => ({ ...base, columns: [{ ...base.columns[0], link }, base.columns[1]] });
    expect(problems(linked('/other_report?code={code}&from={$date_from}'))).toEqual([]);
    expect(problems(linked('/other_report?from={$date_to}')).map((p) => p.pointer)).toContain('/columns/0/link');
    expect(problems(linked('/product/{nothing}')).map((p) => p.pointer)).toContain('/columns/0/link');
  });

  it('checks countFrom: its own tables, a value for every total and only for totals, values of one row', () => {
    const countFrom = { source: { from: 'journal_account_day', as: 'd' }, where: [{ ge: ['d.doc_date', { param: 'date_from' }] }], count: 'd.line_count', totals: { qty: 'd.debit' } };
    expect(problems({ ...base, countFrom })).toEqual([]);
    expect(problems({ ...base, countFrom: { ...countFrom, totals: {} } }).map((p) => p.pointer)).toContain('/countFrom/totals');
    expect(problems({ ...base, countFrom: { ...countFrom, totals: { qty: 'd.debit', code: 'd.credit' } } }).map((p) => p.pointer)).toContain('/countFrom/totals/code');
    expect(problems({ ...base, countFrom: { ...countFrom, count: 'p.qty' } }).map((p) => p.pointer)).toContain('/countFrom/count');
    expect(problems({ ...base, countFrom: { ...countFrom, count: { sum: 'd.line_count' } } }).map((p) => p.pointer)).toContain('/countFrom');
  });

  it('loads a good file', () => {
    expect(load(base)[0]!.name).toBe('r1');
  });

  it('gives a column that is one enum field the field\'s options, so the screen and the PDF show labels, not codes', () => {
    const cls = { key: 'cls', label: { th: 'ประเภท', en: 'Class' }, type: 'string', expr: 'p.product_class' };
    const [r] = load({ ...base, columns: [...base.columns, cls] });
    expect(r!.columns.find((c) => c.key === 'cls')!.options).toEqual([{ value: 'asset', label: { th: 'ทรัพย์สิน', en: 'Asset' } }]);
    expect(r!.columns.find((c) => c.key === 'code')!.options).toBeUndefined();
    // the file's own options win
    const own = [{ value: 'asset', label: { th: 'ของใช้', en: 'Own' } }];
    expect(load({ ...base, columns: [...base.columns, { ...cls, options: own }] })[0]!.columns.find((c) => c.key === 'cls')!.options).toEqual(own);
  });

  it('names the file, the JSON pointer and the reason', () => {
    expect(problems({ ...base, colums: [] })).toContainEqual({ file: 'reports/r1.json', pointer: '', reason: 'unknown property "colums"' });
    expect(problems(base, 'reports/other.json')).toContainEqual({ file: 'reports/other.json', pointer: '/name', reason: 'must match the file name "other"' });
    expect(problems({ ...base, source: { from: 'nope', as: 'p' } })).toContainEqual(expect.objectContaining({ pointer: '/source/from', reason: expect.stringContaining('unknown table "nope"') }));
    expect(problems({ ...base, columns: [{ ...base.columns[0], expr: 'p.nope' }] })).toContainEqual({ file: 'reports/r1.json', pointer: '/columns/0/expr', reason: '"nope" is not a column of "p"' });
    expect(problems({ ...base, columns: [{ ...base.columns[0], expr: 'x.code' }] })).toContainEqual(expect.objectContaining({ pointer: '/columns/0/expr', reason: '"x" is not a table alias of this report' }));
    expect(problems({ ...base, where: [{ ge: ['p.code', { param: 'date_to' }] }] })).toContainEqual(expect.objectContaining({ pointer: '/where/0/ge/1', reason: '"date_to" is not a parameter' }));
    expect(problems({ ...base, totals: ['code'] })).toContainEqual(expect.objectContaining({ pointer: '/totals/0' }));
    expect(problems({ ...base, sort: [{ key: 'missing' }] })).toContainEqual(expect.objectContaining({ pointer: '/sort/0/key' }));
    // SQL text has no place in a file: an unknown expression form is refused where it stands
    expect(problems({ ...base, columns: [{ ...base.columns[0], expr: { raw: 'select 1' } }] })).toContainEqual(expect.objectContaining({ pointer: '/columns/0/expr' }));
    expect(problems({ ...base, columns: [{ ...base.columns[0], expr: 'p.code; drop table product' }] })).toContainEqual(expect.objectContaining({ pointer: '/columns/0/expr' }));
  });

  it('checks the names inside a scalar subquery and a running sum, and counts neither as an aggregate', () => {
    const scalar = (where: unknown, value: unknown) => ({ key: 'opening', label: { th: 'ยกมา', en: 'Opening' }, type: 'qty', expr: { scalar: { from: 'product', as: 'q', where: [where], value } } });
    const ok = scalar({ eq: ['q.code', 'p.code'] }, { sum: 'q.qty' });
    const running = { key: 'running', label: { th: 'สะสม', en: 'Running' }, type: 'qty', expr: { runningSum: 'p.qty', orderBy: ['p.code'] } };
    expect(problems({ ...base, columns: [...base.columns, ok, running] })).toEqual([]);
    expect(problems({ ...base, columns: [...base.columns, scalar({ eq: ['q.nope', 'p.code'] }, { sum: 'q.qty' })] })).toContainEqual(expect.objectContaining({ pointer: '/columns/2/expr/scalar/where/0/eq/0', reason: '"nope" is not a column of "q"' }));
    expect(problems({ ...base, columns: [...base.columns, scalar({ eq: ['q.code', 'p.code'] }, { sum: 'z.qty' })] })).toContainEqual(expect.objectContaining({ pointer: '/columns/2/expr/scalar/value/sum' }));
    expect(problems({ ...base, columns: [...base.columns, { ...running, expr: { runningSum: 'p.qty', orderBy: ['x.code'] } }] })).toContainEqual(expect.objectContaining({ pointer: '/columns/2/expr/orderBy/0' }));
    // a subquery's sum is one value of the row, a running sum a window: neither makes the report group
    expect(isAggregate(ok.expr as never)).toBe(false);
    expect(isAggregate(running.expr as never)).toBe(false);
    // a running sum needs its order
    expect(problems({ ...base, columns: [...base.columns, { ...running, expr: { runningSum: 'p.qty' } }] })).toContainEqual(expect.objectContaining({ pointer: '/columns/2/expr' }));
  });
});
