import { describe, expect, it } from 'vitest';
import { assignSection, bodyFrom, changedProps, draftFrom, moved, parseDefault, sectionOf, type PageInfo } from './page-setting-draft.ts';

function info(): PageInfo {
  const field = (name: string, over: Partial<PageInfo['fields'][number]['merged']> = {}) => {
    const file = { label: { th: name, en: name }, hidden: 'none' as const, required: false, readOnly: false, default: null, width: null, linkFilter: null, pickerColumns: null };
    return { name, type: 'string', file, merged: { ...file, ...over }, overridden: Object.keys(over), locked: { readOnly: false, required: false } };
  };
  const page = { label: { th: 'หน้า', en: 'Page' }, listColumns: ['code', 'name'], fieldOrder: ['code', 'name', 'note'], defaultSort: 'code', pageSize: 50, formSections: [] };
  return { entity: 'x', kind: 'master', productPicker: null, page: { file: page, merged: { ...page, pageSize: 20 }, overridden: ['pageSize'] }, fields: [field('code'), field('name', { width: 200 }), field('note')] };
}

describe('page-setting draft', () => {
  it('starts from the merged values and sends only what differs from the file', () => {
    const i = info();
    const d = draftFrom(i);
    expect(d.fields.name!.width).toBe(200);
    d.fields.note!.hidden = 'list';
    d.fields.code!.label = { th: 'code', en: 'code' }; // same as the file: not sent
    expect(bodyFrom(d, i)).toEqual({ fields: { name: { width: 200 }, note: { hidden: 'list' } }, page: { pageSize: 20 } });
    d.fields.name!.width = null;
    d.page.pageSize = 50;
    expect(bodyFrom(d, i)).toEqual({ fields: { note: { hidden: 'list' } }, page: {} });
    expect(changedProps(d.fields.note!, i.fields[2]!.file)).toEqual(['hidden']);
  });

  it('moves items, clamped at both ends', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('parses defaults by field type', () => {
    expect(parseDefault('integer', ' 7 ')).toBe(7);
    expect(parseDefault('integer', 'seven')).toBe('seven');
    expect(parseDefault('string', '')).toBeNull();
    expect(parseDefault('date', '$NOW')).toBe('$NOW');
    expect(parseDefault('string', 'ก ข')).toBe('ก ข');
  });

  it('moves a field between form sections', () => {
    const sections = [
      { key: 'a', label: { th: 'ก', en: 'A' }, fields: ['code', 'name'] },
      { key: 'b', label: { th: 'ข', en: 'B' }, fields: ['note'] },
    ];
    const next = assignSection(sections, 'code', 'b');
    expect(next.map((s) => s.fields)).toEqual([['name'], ['note', 'code']]);
    expect(sectionOf(next, 'code')).toBe('b');
    expect(sectionOf(assignSection(next, 'code', ''), 'code')).toBe('');
  });
});
