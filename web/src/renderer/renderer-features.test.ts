// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { defaultValues, removedLineIds, valuesToBody } from './form-model.ts';
import { columnFor, linesFilterField, linkColor, listFields } from './list-columns.ts';
import { fileFieldOf, fileMetadataValues, uploadCategoryOf } from './file-metadata.ts';
import { fullHex } from './ColorChip.tsx';
import { fillFromMap } from './EntityForm.tsx';

const priority: EntitySchema = {
  name: 'prospect_priority', label: { th: 'ความสำคัญ', en: 'Priority' }, kind: 'master', titleField: 'name_th',
  fields: { name_th: { type: 'string', label: { th: 'ชื่อ', en: 'Name' } }, color: { type: 'color', label: { th: 'สี', en: 'Colour' }, default: '#000' } },
};
const deal: EntitySchema = {
  name: 'deal', label: { th: 'ดีล', en: 'Deal' }, kind: 'master', titleField: 'title',
  numbering: { field: 'no', prefix: 'D', pattern: '{prefix}{seq:4}' },
  fields: {
    no: { type: 'string', label: { th: 'เลขที่', en: 'No.' }, required: true },
    title: { type: 'string', label: { th: 'หัวข้อ', en: 'Title' }, required: true },
    at: { type: 'datetime', label: { th: 'เวลา', en: 'At' }, default: '$NOW' },
    day: { type: 'date', label: { th: 'วัน', en: 'Day' }, default: '$NOW' },
    owner_id: { type: 'link', entity: 'user_account', label: { th: 'เจ้าของ', en: 'Owner' }, default: '$CURRENT_USER' },
    contact_id: { type: 'link', entity: 'contact', label: { th: 'ผู้ติดต่อ', en: 'Contact' } },
    mobile: { type: 'phone', label: { th: 'มือถือ', en: 'Mobile' }, fillFrom: { link: 'contact_id', field: 'mobile_number' } },
    email: { type: 'email', label: { th: 'อีเมล', en: 'Email' }, fillFrom: { link: 'contact_id', field: 'email' } },
    priority_id: { type: 'link', entity: 'prospect_priority', label: { th: 'ความสำคัญ', en: 'Priority' }, colorField: 'color' },
    lines: { type: 'lines', entity: 'deal_line', label: { th: 'รายการ', en: 'Lines' } },
  },
};
const line: EntitySchema = {
  name: 'deal_line', label: { th: 'รายการ', en: 'Line' }, kind: 'lines', titleField: 'text', parent: { entity: 'deal', field: 'deal_id' },
  fields: { text: { type: 'string', label: { th: 'ข้อความ', en: 'Text' } } },
};
const resolve = (n: string) => ({ deal, deal_line: line, prospect_priority: priority } as Record<string, EntitySchema>)[n];

describe('renderer features', () => {
  it('shows "$NOW" (Bangkok time) and "$CURRENT_USER" prefilled on create', () => {
    const v = defaultValues(deal, { userId: 7, now: new Date('2026-11-21T09:05:00+07:00') });
    expect(v).toMatchObject({ at: '2026-11-21T09:05', day: '2026-11-21', owner_id: 7 });
  });

  it('leaves an empty numbered field to the server series', () => {
    const body = valuesToBody(deal, { ...defaultValues(deal, { userId: 1 }), no: '', title: 'x' }, resolve);
    expect('no' in body).toBe(false);
    expect(body.title).toBe('x');
  });

  it('names the stored lines that were removed, as delete_<field>', () => {
    const stored = { lines: [{ id: 1, text: 'a' }, { id: 2, text: 'b' }, { id: 3, text: 'c' }] };
    expect(removedLineIds(deal, stored, { lines: [{ id: 1, text: 'a' }, { text: 'new' }, { id: 3, text: 'c' }] })).toEqual({ delete_lines: [2] });
    expect(removedLineIds(deal, stored, stored)).toEqual({});
  });

  it('link colour chips: the colour column is fetched, and an empty colour falls back to the colour field default', () => {
    const col = columnFor(deal, { prospect_priority: priority }, 'priority_id')!;
    expect(col).toMatchObject({ valueKey: 'priority_id.name_th', colorKey: 'priority_id.color', defaultColor: '#000' });
    expect(listFields([col], [])).toEqual(['id', 'priority_id', 'priority_id.name_th', 'priority_id.color']);
    expect(linkColor(deal.fields.priority_id!, priority, null)).toBe('#000');
    expect(linkColor(deal.fields.priority_id!, priority, '#EF4444')).toBe('#EF4444');
    expect(fullHex('#000')).toBe('#000000');
    expect(fullHex('red')).toBeNull();
  });

  it('system columns can be list columns', () => {
    expect(columnFor(deal, {}, 'created_at')).toMatchObject({ name: 'created_at', field: { type: 'datetime' } });
  });

  it('fillFrom: which fields a link fills', () => {
    expect(fillFromMap(deal)).toEqual({ contact_id: [{ field: 'mobile', from: 'mobile_number' }, { field: 'email', from: 'email' }] });
  });

  it('file fields: category, metadata fields named like the upload answer', () => {
    const att: EntitySchema = {
      name: 'attachment', label: { th: 'ไฟล์', en: 'File' }, kind: 'master', titleField: 'file_name',
      fields: {
        file: { type: 'file', label: { th: 'ไฟล์', en: 'File' }, required: true },
        file_name: { type: 'string', label: { th: 'ชื่อ', en: 'Name' }, maxLength: 5 },
        size: { type: 'integer', label: { th: 'ขนาด', en: 'Size' } },
      },
    };
    expect(fileFieldOf(att)).toBe('file');
    expect(uploadCategoryOf(att, att.fields.file!)).toBe('attachment');
    expect(uploadCategoryOf(att, { ...att.fields.file!, accept: ['application/pdf', 'contracts'] })).toBe('contracts');
    expect(fileMetadataValues(att, { id: 'x.pdf', file_name: 'quote.pdf', mime_type: 'application/pdf', size: 12, url: '/api/file/x.pdf' }))
      .toEqual({ file_name: 'quote', size: 12 });
  });
});

describe('a list filter through a lines field', () => {
  const value: EntitySchema = {
    name: 'thing_value', label: { th: 'ค่า', en: 'Value' }, kind: 'lines', titleField: 'option_id', parent: { entity: 'thing', field: 'thing_id' },
    fields: { option_id: { type: 'link', entity: 'option', label: { th: 'ตัวเลือก', en: 'Option' } } },
  };
  const thing: EntitySchema = {
    name: 'thing', label: { th: 'ของ', en: 'Thing' }, kind: 'master', titleField: 'code',
    fields: { code: { type: 'string', label: { th: 'รหัส', en: 'Code' } }, values: { type: 'lines', entity: 'thing_value', label: { th: 'ค่า', en: 'Values' } } },
  };
  it('resolves "values.option_id" to the line entity\'s field, and nothing else', () => {
    const hit = linesFilterField(thing, { thing_value: value }, 'values.option_id');
    expect(hit).toMatchObject({ lines: 'values', rest: 'option_id', field: { type: 'link', entity: 'option' } });
    expect(hit!.child.name).toBe('thing_value');
    expect(linesFilterField(thing, { thing_value: value }, 'code')).toBeNull();
    expect(linesFilterField(thing, { thing_value: value }, 'values.nope')).toBeNull();
    expect(linesFilterField(thing, { thing_value: value }, 'code.x')).toBeNull();
    expect(linesFilterField(thing, {}, 'values.option_id')).toBeNull();
  });
});
