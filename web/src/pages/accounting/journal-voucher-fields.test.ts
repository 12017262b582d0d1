/**
 * Issue 52 §1: a voucher typed by hand (ใบสำคัญทั่วไป) shows no source document nor reversal, which mean nothing on it;
 * an entry a document wrote shows its source's number and a reversing entry what it reverses, read-only
 * (schemas/journal_entry.json's visibleIf, evaluated as the form does). The source's kind (`source_entity`, a schema's
 * name such as "pos_order") is never a field on screen: the open-the-source button names it in words.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { compileConditions, formSections } from '../../renderer/form-model.ts';

const entry = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../schemas/journal_entry.json'), 'utf8')) as EntitySchema;
const AUTOMATIC = ['source_entity', 'source_id', 'source_doc_no', 'reverses_id'];

describe('the journal voucher form\'s source fields', () => {
  const conditions = compileConditions(entry, (n) => (n === entry.name ? entry : undefined));
  /** The fields the form shows for these values, as FormFields picks them. */
  const shown = (values: Record<string, unknown>) => formSections(entry).flatMap((s) => s.fields).filter((f) => conditions.visible(f, values) && !entry.fields[f]!.hidden);
  const automaticShown = (values: Record<string, unknown>) => shown(values).filter((f) => AUTOMATIC.includes(f));

  it('hides the source and the reversal on a voucher typed by hand, new or stored', () => {
    for (const manual of [{}, { source_entity: null, source_id: null, source_doc_no: null, reverses_id: null }, { source_entity: '' }]) {
      expect(automaticShown(manual)).toEqual([]);
    }
    expect(shown({})).toEqual(expect.arrayContaining(['doc_no', 'doc_date', 'journal', 'memo', 'items']));
  });

  it('shows the source\'s number, read-only, on an entry a document wrote, and the reversal on a reversing entry', () => {
    const automatic = { source_entity: 'tax_invoice', source_id: 12, source_doc_no: 'TPT-IV202611-00012', reverses_id: null };
    expect(automaticShown(automatic)).toEqual(['source_doc_no']);
    expect(automaticShown({ ...automatic, reverses_id: 40 })).toEqual(['source_doc_no', 'reverses_id']);
    for (const f of AUTOMATIC) expect(entry.fields[f]!.readOnly, f).toBe(true);
    // the kind is a schema's name: never shown as a field (the button says "เปิดเอกสารต้นทาง ใบกำกับภาษี …")
    expect(entry.fields.source_entity!.hidden).toBe(true);
  });
});
